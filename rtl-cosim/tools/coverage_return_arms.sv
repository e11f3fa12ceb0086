// rtl-cosim/tools/coverage_return_arms.sv - does Verilator's --coverage-line
// count an arm that ends in a `return`? (make cosim-coverage-probe; the reading
// behind coverage_report.py's "uncountable" lines.)
//
// Two functions with the same case, one whose arms return, one whose arms
// assign a result returned after the case; and early `if (..) return`s. The
// driver (coverage_return_arms.cpp) runs sel = 0, 1, 2 ten times each and never
// 3 or 7, then reads the counts back: the assigning arms 0-2 must read 10 and
// arm 3 0; the returning arms read 0 (all of them) if Verilator skips their
// increment. Verilator 5.006 does: it emits each arm's increment after the
// arm's statements, and turns a function's `return` into a `goto` to the end of
// the inlined function, over it.
module coverage_return_arms (
    input logic clk,
    input logic [2:0] sel,
    input logic [7:0] a,
    output logic [7:0] y
);
    function automatic logic [7:0] arms_return(input logic [2:0] s, input logic [7:0] v);
        case (s)
            3'd0: return v + 8'd1;
            3'd1: return v ^ 8'h55;
            3'd2: begin
                v = v - 8'd3;
                return v;
            end
            3'd3: return v & 8'h0f;
            default: return 8'd0;
        endcase
    endfunction

    function automatic logic [7:0] arms_assign(input logic [2:0] s, input logic [7:0] v);
        logic [7:0] r;
        case (s)
            3'd0: r = v + 8'd1;
            3'd1: r = v ^ 8'h55;
            3'd2: r = v - 8'd3;
            3'd3: r = v & 8'h0f;
            default: r = 8'd0;
        endcase
        return r;
    endfunction

    function automatic logic [7:0] early_return(input logic [2:0] s, input logic [7:0] v);
        if (s == 3'd0) return v + 8'd2;
        if (s == 3'd7) return 8'd9;
        return v;
    endfunction

    always_ff @(posedge clk) begin
        y <= arms_return(sel, a) ^ arms_assign(sel, a) ^ early_return(sel, a);
    end
endmodule
