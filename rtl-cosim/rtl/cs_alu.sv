// rtl-cosim/rtl/cs_alu.sv - the command streamer ALU behind MI_MATH.
//
// Same behaviour as the C model units/cs_alu/cs_alu.{h,c} (which states every
// rule with its seed line): seed 003 L1321-1528 for the instructions, seed 004
// L20912-20933 for MI_MATH (up to 256 ALU dwords, one instruction per clock).
//
// Interface (one request at a time, valid/ready, a transfer happens on the
// rising edge where valid && ready):
//   req_*   the GPRs R0..R15, the instruction count (0..256) and the ALU dwords
//   resp_*  the GPRs after the last instruction, ACCU, SRCA, SRCB, ZF, CF, the
//           instructions executed and how many had a reserved encoding
//   cfg_cpi clocks per instruction (>= 1; 0 is taken as 1), sampled per request
// Timing: a request taken on the edge of cycle T loads the GPRs; instruction k
// executes on the edge of cycle T + (k + 1) * cpi; resp_valid rises after the
// last one, so a harness sampling before each edge sees it on cycle
// T + 1 + n * cpi. req_ready is high when idle, and also while the response is
// being taken (resp_valid && resp_ready), so requests can run back to back.
// SRCA, SRCB, ACCU, ZF and CF persist from request to request; reset clears them.
//
// `define BROKEN plants one deliberate bug (SUB sets CF on carry instead of on
// borrow) so the co-simulation checker can be shown to fail.

module cs_alu #(
    parameter int MAX_INSTR = 256
) (
    input  logic        clk,
    input  logic        rst_n,
    input  logic [15:0] cfg_cpi,

    input  logic        req_valid,
    output logic        req_ready,
    input  logic [63:0] req_gpr   [16],
    input  logic [8:0]  req_count,
    input  logic [31:0] req_instr [MAX_INSTR],

    output logic        resp_valid,
    input  logic        resp_ready,
    output logic [63:0] resp_gpr  [16],
    output logic [63:0] resp_accu,
    output logic [63:0] resp_srca,
    output logic [63:0] resp_srcb,
    output logic        resp_zf,
    output logic        resp_cf,
    output logic [8:0]  resp_executed,
    output logic [8:0]  resp_reserved
);
    // Opcodes (seed 003 L1449-1462) and registers (L1492-1524).
    localparam logic [11:0] OP_NOOP = 12'h000, OP_LOAD = 12'h080, OP_LOADINV = 12'h480,
                            OP_LOAD0 = 12'h081, OP_LOAD1 = 12'h481, OP_ADD = 12'h100,
                            OP_SUB = 12'h101, OP_AND = 12'h102, OP_OR = 12'h103,
                            OP_XOR = 12'h104, OP_STORE = 12'h180, OP_STOREINV = 12'h580;
    localparam logic [9:0] REG_SRCA = 10'h020, REG_SRCB = 10'h021, REG_ACCU = 10'h031,
                           REG_ZF = 10'h032, REG_CF = 10'h033;

    typedef enum logic [1:0] { IDLE, RUN, DONE } state_t;

    state_t      state;
    logic [63:0] gpr [16];
    logic [63:0] srca, srcb, accu;
    logic        zf, cf;
    logic [31:0] instr_q [MAX_INSTR];
    logic [8:0]  count, pc, reserved;
    logic [15:0] cpi, wait_q;

    assign req_ready     = (state == IDLE) || (state == DONE && resp_ready);
    assign resp_valid    = (state == DONE);
    assign resp_gpr      = gpr;
    assign resp_accu     = accu;
    assign resp_srca     = srca;
    assign resp_srcb     = srcb;
    assign resp_zf       = zf;
    assign resp_cf       = cf;
    assign resp_executed = count;
    assign resp_reserved = reserved;

    // ---- one instruction, combinational --------------------------------------
    logic [31:0] ins;
    logic [11:0] opcode;
    logic [9:0]  op1, op2;
    logic        op1_gpr, op2_gpr, op1_src;
    logic [63:0] store_val;
    logic        store_ok;
    logic [64:0] sum, diff;
    logic [63:0] logic_val;

    always_comb begin
        ins     = instr_q[pc[7:0]];
        opcode  = ins[31:20];
        op1     = ins[19:10];
        op2     = ins[9:0];
        op1_gpr = (op1[9:4] == 6'd0);
        op2_gpr = (op2[9:4] == 6'd0);
        op1_src = (op1 == REG_SRCA) || (op1 == REG_SRCB);
        sum     = {1'b0, srca} + {1'b0, srcb};
        diff    = {1'b0, srca} - {1'b0, srcb};      // diff[64] is the borrow
        logic_val = (opcode == OP_AND) ? (srca & srcb)
                  : (opcode == OP_OR)  ? (srca | srcb) : (srca ^ srcb);
        store_ok = 1'b1;
        unique case (op2)
            REG_ACCU: store_val = accu;
            REG_ZF:   store_val = {64{zf}};         // flags fill all 64 bits (L1414)
            REG_CF:   store_val = {64{cf}};
            default: begin
                store_val = 64'd0;
                store_ok  = 1'b0;
            end
        endcase
    end

    // ---- state ----------------------------------------------------------------
    // The instruction buffer has no reset: it is written whenever a request is taken.
    always_ff @(posedge clk) begin
        if (req_valid && req_ready) instr_q <= req_instr;
    end

    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            state    <= IDLE;
            srca     <= '0;
            srcb     <= '0;
            accu     <= '0;
            zf       <= 1'b0;
            cf       <= 1'b0;
            count    <= '0;
            pc       <= '0;
            reserved <= '0;
            cpi      <= 16'd1;
            wait_q   <= '0;
            for (int i = 0; i < 16; i++) gpr[i] <= '0;
        end else begin
            if (req_valid && req_ready) begin
                // Take a request: the GPRs, the count (clamped to 256) and the dwords.
                gpr      <= req_gpr;
                count    <= (req_count > 9'd256) ? 9'd256 : req_count;
                pc       <= '0;
                reserved <= '0;
                cpi      <= (cfg_cpi == 16'd0) ? 16'd1 : cfg_cpi;
                wait_q   <= '0;
                state    <= (req_count == 9'd0) ? DONE : RUN;
            end else if (state == DONE && resp_ready) begin
                state <= IDLE;
            end else if (state == RUN) begin
                if (wait_q != cpi - 16'd1) begin
                    wait_q <= wait_q + 16'd1;
                end else begin
                    wait_q <= '0;
                    pc     <= pc + 9'd1;
                    if (pc + 9'd1 == count) state <= DONE;
                    unique case (opcode)
                        OP_NOOP: ;
                        OP_LOAD, OP_LOADINV: begin
                            if (op1_src && op2_gpr) begin
                                if (op1 == REG_SRCA)
                                    srca <= (opcode == OP_LOADINV) ? ~gpr[op2[3:0]] : gpr[op2[3:0]];
                                else
                                    srcb <= (opcode == OP_LOADINV) ? ~gpr[op2[3:0]] : gpr[op2[3:0]];
                            end else begin
                                reserved <= reserved + 9'd1;
                            end
                        end
                        OP_LOAD0, OP_LOAD1: begin
                            if (op1_src) begin
                                if (op1 == REG_SRCA) srca <= {64{opcode == OP_LOAD1}};
                                else                 srcb <= {64{opcode == OP_LOAD1}};
                            end else begin
                                reserved <= reserved + 9'd1;
                            end
                        end
                        OP_ADD: begin
                            accu <= sum[63:0];
                            cf   <= sum[64];
                            zf   <= (sum[63:0] == 64'd0);
                        end
                        OP_SUB: begin
                            accu <= diff[63:0];
`ifdef BROKEN
                            cf   <= ~diff[64];              // the planted bug
`else
                            cf   <= diff[64];
`endif
                            zf   <= (diff[63:0] == 64'd0);
                        end
                        OP_AND, OP_OR, OP_XOR: begin
                            accu <= logic_val;
                            cf   <= 1'b0;
                            zf   <= (logic_val == 64'd0);
                        end
                        OP_STORE, OP_STOREINV: begin
                            if (op1_gpr && store_ok)
                                gpr[op1[3:0]] <= (opcode == OP_STOREINV) ? ~store_val : store_val;
                            else
                                reserved <= reserved + 9'd1;
                        end
                        default: reserved <= reserved + 9'd1;
                    endcase
                end
            end
        end
    end
endmodule
