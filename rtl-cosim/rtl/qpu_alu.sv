// rtl-cosim/rtl/qpu_alu.sv - the VideoCore IV QPU's add ALU and multiply ALU
// with their operand unpack, result pack, write conditions and flags, for one
// quad (four SIMD elements) a clock.
//
// Same behaviour as the C datapath it stands in for (isa/vc4/qpu_exec.h
// qpu_alu_compute, whose comments cite seed 002 by byte offset; notes/002 §3,
// §8 for what the seed leaves open and the choices the C model made):
//  - operands: the values the muxes selected (mux codes: 0-3 r0-r3, 4 r4,
//    5 r5, 6 regfile A, 7 regfile B); pm=0: the regfile-A unpack (Table 6
//    @78780) of every operand read from regfile A, in float form (16a/16b as
//    half floats, 8a..8d as byte/255) when a float op of either ALU consumes
//    regfile A, else integer form (16a/16b sign-extended, bytes); 8d_rep
//    replicates the top byte; pm=1: the r4 unpack (Table 8 @81468, erratum E1)
//    of every operand read from r4, float forms but nop and 8d_rep;
//  - the add ALU (Table 12 @87476): fadd fsub fmin fmax fminabs fmaxabs ftoi
//    itof add sub shr asr ror shl min max and or xor not clz v8adds v8subs;
//    reserved codes and nop give 0. The mul ALU (Table 13 @88413): fmul mul24
//    v8muld v8min v8max v8adds v8subs;
//  - floats: operands and results flushed to zero of the same sign (notes §8);
//    products and sums rounded to nearest even (the result rounded as if
//    denormals existed, then flushed, as the C model on x86-64 SSE); NaN
//    results as SSE gives them: a NaN first operand quietened, else a NaN
//    second operand quietened, else the default NaN 0xffc00000; fmin/fmax
//    select as `a < b ? a : b` / `a > b ? a : b` (a NaN gives b, -0 == +0);
//    ftoi truncates, 0 outside [-2^31, 2^31) and for NaN; itof rounds to
//    nearest even; shifts use b's low 5 bits; clz(0) = 32; v8 ops per
//    unsigned byte, saturating, v8muld (x*y + 127) / 255;
//  - the carry flag [chosen in the C model]: add: carry out; sub: borrow;
//    min/max/fmin/fmax: a > b; fminabs/fmaxabs: |a| > |b|; else clear;
//  - packs: pm=0 the regfile-A pack (Table 7 @79793) of a write to a regfile-A
//    location (16a/16b: float results as half floats, integers truncated or
//    saturated; 8888, 8a..8d with or without unsigned saturation, the other
//    bytes kept from the location's old contents; 32_sat saturating add/sub);
//    pm=1 the mul pack (Table 9 @81964, E2): sat(round(f * 255)) into 8888 or
//    one byte;
//  - conditions (Table 2 @74529) decide which elements write; flags (sf, Table
//    1 @72071 with E3) from the add ALU unless it is a nop, else the mul ALU,
//    for the elements whose condition passed: Z (float results: magnitude
//    zero), N (bit 31), C.
//
// Structure: three register stages. A quad presented with in_valid on a
// rising edge is captured (stage 1), unpacked and run through both ALUs
// (stage 2 registers the ALU results), packed, conditioned and flagged
// (stage 3, the outputs): out_valid is high after the second edge following
// the capture. One quad a clock, no back-pressure; in_tag rides along.
//
// `define BROKEN plants one bug (fmul truncates its product instead of rounding
// to nearest even) so the checker can be shown to fail.

module qpu_alu (
    input  logic             clk,
    input  logic             rst_n,

    input  logic             in_valid,
    input  logic [7:0]       in_tag,
    input  logic [4:0]       op_add,
    input  logic [2:0]       op_mul,
    input  logic [2:0]       mux_add_a, mux_add_b, mux_mul_a, mux_mul_b,
    input  logic             pm,
    input  logic [2:0]       unpack,
    input  logic [3:0]       pack,
    input  logic [2:0]       cond_add, cond_mul,
    input  logic             sf,
    input  logic             add_pack_a, mul_pack_a,
    input  logic [3:0]       flag_z_in, flag_n_in, flag_c_in,
    input  logic [3:0][31:0] add_a, add_b, mul_a, mul_b,
    input  logic [3:0][31:0] add_old, mul_old,

    output logic             out_valid,
    output logic [7:0]       out_tag,
    output logic [3:0][31:0] add_value, mul_value,
    output logic [3:0]       add_write, mul_write,
    output logic [3:0]       flag_z_out, flag_n_out, flag_c_out
);
    localparam logic [2:0] MUX_R4 = 3'd4, MUX_RA = 3'd6;
    localparam logic [31:0] DEFAULT_NAN = 32'hffc00000;

    // ---- float helpers --------------------------------------------------------------
    function automatic logic [31:0] flush(input logic [31:0] a);
        return a[30:23] == 8'd0 ? {a[31], 31'd0} : a;
    endfunction

    function automatic logic is_nan(input logic [30:0] a);
        return a[30:23] == 8'hff && a[22:0] != 23'd0;
    endfunction

    function automatic logic is_inf(input logic [30:0] a);
        return a[30:23] == 8'hff && a[22:0] == 23'd0;
    endfunction

    // a < b as IEEE compares (flushed operands: zeros equal, NaN unordered)
    function automatic logic f_lt(input logic [31:0] a, input logic [31:0] b);
        if (is_nan(a[30:0]) || is_nan(b[30:0]))
            return 1'b0;
        if (a[30:0] == 31'd0 && b[30:0] == 31'd0)
            return 1'b0;
        if (a[31] != b[31])
            return a[31];
        return a[31] ? a[30:0] > b[30:0] : a[30:0] < b[30:0];
    endfunction

    // Round a significand to nearest even and pack. m: leading one at bit 47 (or
    // zero), value m * 2^(e - 127 - 47); e may be below 1 (the value is then
    // rounded at the denormal LSB 2^-149) or above 254 (infinity). sticky: bits
    // below m. The result is flushed when it is a denormal.
    function automatic logic [31:0] round_pack(input logic s, input logic [47:0] m,
                                               input logic signed [11:0] e,
                                               input logic sticky);
        logic [47:0] q;
        logic        lost;
        logic [24:0] r;
        logic [11:0] sh;
        logic signed [11:0] e2;
        lost = sticky;
        q = m;
        e2 = e;
        if (e < 12'sd1) begin
            sh = 12'(12'sd1 - e);
            if (sh > 12'd48)
                sh = 12'd48;
            for (int i = 0; i < 48; i++)
                if (12'(i) < sh && q[i])
                    lost = 1'b1;
            q = q >> sh;
            e2 = 12'sd0;
        end
        r = {1'b0, q[47:24]};
        if (q[23] && (lost || q[22:0] != 23'd0 || q[24]))
            r = r + 25'd1;
        if (e2 == 12'sd0) begin
            // denormal scale: a carry into bit 23 makes the smallest normal
            if (r[23])
                return {s, 8'd1, r[22:0]};
            return {s, 31'd0};      // a denormal: flushed
        end
        if (r[24]) begin
            r = r >> 1;
            e2 = e2 + 12'sd1;
        end
        if (e2 >= 12'sd255)
            return {s, 8'hff, 23'd0};
        return {s, e2[7:0], r[22:0]};
    endfunction

    function automatic logic [31:0] quiet(input logic [31:0] a);
        return a | 32'h00400000;
    endfunction

    function automatic logic [31:0] f_mul(input logic [31:0] a_in, input logic [31:0] b_in);
        logic [31:0] a, b;
        logic        s;
        logic [47:0] p;
        logic signed [11:0] e;
        a = flush(a_in);
        b = flush(b_in);
        s = a[31] ^ b[31];
        if (is_nan(a[30:0]))
            return quiet(a);
        if (is_nan(b[30:0]))
            return quiet(b);
        if ((is_inf(a[30:0]) && b[30:0] == 31'd0) || (is_inf(b[30:0]) && a[30:0] == 31'd0))
            return DEFAULT_NAN;
        if (is_inf(a[30:0]) || is_inf(b[30:0]))
            return {s, 8'hff, 23'd0};
        if (a[30:0] == 31'd0 || b[30:0] == 31'd0)
            return {s, 31'd0};
        p = {1'b1, a[22:0]} * {1'b1, b[22:0]};
        e = 12'(signed'({4'd0, a[30:23]})) + 12'(signed'({4'd0, b[30:23]})) - 12'sd126;
        if (!p[47]) begin
            p = p << 1;
            e = e - 12'sd1;
        end
`ifdef BROKEN
        p[23:0] = 24'd0;            // the planted bug: the product truncated, not rounded
`endif
        return round_pack(s, p, e, 1'b0);
    endfunction

    function automatic logic [31:0] f_add(input logic [31:0] a_in, input logic [31:0] b_in,
                                          input logic subtract);
        logic [31:0] a, b, x, y;
        logic [50:0] mx, my, sum;
        logic [7:0]  d;
        logic        sticky, eff_sub;
        logic signed [11:0] e;
        logic [5:0]  sh;
        int          lead;
        a = flush(a_in);
        b = flush(b_in);
        if (is_nan(a[30:0]))
            return quiet(a);
        if (is_nan(b[30:0]))
            return quiet(b);
        if (subtract)
            b[31] = ~b[31];
        if (is_inf(a[30:0]) && is_inf(b[30:0]))
            return a[31] == b[31] ? a : DEFAULT_NAN;
        if (is_inf(a[30:0]))
            return a;
        if (is_inf(b[30:0]))
            return b;
        if (a[30:0] == 31'd0 && b[30:0] == 31'd0)
            return {a[31] & b[31], 31'd0};
        if (a[30:0] == 31'd0)
            return b;
        if (b[30:0] == 31'd0)
            return a;
        // x: the larger magnitude
        if (a[30:0] >= b[30:0]) begin
            x = a;
            y = b;
        end else begin
            x = b;
            y = a;
        end
        d = x[30:23] - y[30:23];
        mx = {2'b01, x[22:0], 26'd0};
        my = {2'b01, y[22:0], 26'd0};
        sticky = 1'b0;
        for (int i = 0; i < 51; i++)
            if (8'(i) < d && my[i])
                sticky = 1'b1;
        my = d > 8'd50 ? 51'd0 : my >> d;
        my[0] = my[0] | sticky;     // jammed: keeps the rounding of a subtraction right
        eff_sub = x[31] != y[31];
        sum = eff_sub ? mx - my : mx + my;
        if (sum == 51'd0)
            return 32'd0;           // exact cancellation: +0
        lead = 0;
        for (int i = 0; i < 51; i++)
            if (sum[i])
                lead = i;
        // value = sum * 2^(ex - 127 - 49); the leading one goes to bit 47 of round_pack's m
        e = 12'(signed'({4'd0, x[30:23]})) + 12'(lead) - 12'sd49;
        if (e < 12'sd1)
            return {x[31], 31'd0};  // below the smallest normal: exact, a denormal, flushed
        if (lead >= 47) begin
            // one to three bits below the 48 kept: into the sticky bit
            sh = 6'(lead - 47);
            sticky = 1'b0;
            for (int i = 0; i < 3; i++)
                if (6'(i) < sh && sum[i])
                    sticky = 1'b1;
            return round_pack(x[31], 48'(sum >> sh), e, sticky);
        end
        return round_pack(x[31], 48'(sum << (47 - lead)), e, 1'b0);
    endfunction

    function automatic logic [31:0] f_abs(input logic [30:0] a);
        return {1'b0, a};
    endfunction

    function automatic logic [31:0] ftoi(input logic [31:0] a_in);
        logic [31:0] a, m;
        logic [7:0]  e;
        a = flush(a_in);
        e = a[30:23];
        if (is_nan(a[30:0]))
            return 32'd0;
        if (e >= 8'd158)    // |f| >= 2^31: only -2^31 fits
            return a == 32'hcf000000 ? 32'h80000000 : 32'd0;
        if (e < 8'd127)
            return 32'd0;
        m = {8'd0, 1'b1, a[22:0]};
        m = e >= 8'd150 ? m << (e - 8'd150) : m >> (8'd150 - e);
        return a[31] ? -m : m;
    endfunction

    function automatic logic [31:0] itof(input logic [31:0] a);
        logic [31:0] mag;
        logic [47:0] m;
        int          lead;
        if (a == 32'd0)
            return 32'd0;
        mag = a[31] ? -a : a;
        lead = 0;
        for (int i = 0; i < 32; i++)
            if (mag[i])
                lead = i;
        m = {mag, 16'd0} << (31 - lead);
        return round_pack(a[31], m, 12'sd127 + 12'(lead), 1'b0);
    endfunction

    function automatic logic [31:0] half_to_float(input logic [15:0] h);
        if (h[14:10] == 5'd0)
            return {h[15], 31'd0};
        if (h[14:10] == 5'h1f)
            return {h[15], 8'hff, h[9:0], 13'd0};
        return {h[15], 8'(h[14:10]) + 8'd112, h[9:0], 13'd0};
    endfunction

    function automatic logic [15:0] float_to_half(input logic [31:0] a);
        logic [10:0] m;
        logic [12:0] rest;
        logic signed [9:0] e;
        if (a[30:23] == 8'hff)
            return {a[31], 5'h1f, a[22:0] != 23'd0, 9'd0};
        e = 10'(signed'({2'd0, a[30:23]})) - 10'sd112;
        if (a[30:23] == 8'd0 || e <= 10'sd0)
            return {a[31], 15'd0};
        m = {1'b0, a[22:13]};
        rest = a[12:0];
        if (rest > 13'h1000 || (rest == 13'h1000 && m[0]))
            m = m + 11'd1;
        if (m[10]) begin
            m = 11'd0;
            e = e + 10'sd1;
        end
        if (e >= 10'sd31)
            return {a[31], 5'h1f, 10'd0};
        return {a[31], e[4:0], m[9:0]};
    endfunction

    // byte / 255.0f rounded to nearest even: x/255 = 0.xxxxxxxx xxxxxxxx ... (binary)
    function automatic logic [31:0] byte_to_float(input logic [7:0] x);
        logic [47:0] w;
        int          top;
        if (x == 8'd0)
            return 32'd0;
        top = 0;
        for (int i = 0; i < 8; i++)
            if (x[i])
                top = i;
        w = {x, x, x, x, x, x} << (7 - top);
        // value in [2^(top-8), 2^(top-7)); the tail past the window is never zero
        return round_pack(1'b0, w, 12'sd119 + 12'(top), 1'b1);
    endfunction

    // sat(round(f * 255)) of the mul pack (f * 255 a float product first)
    function automatic logic [7:0] float_to_byte(input logic [31:0] v);
        logic [31:0] f;
        logic [47:0] m;
        logic [7:0]  q;
        logic [7:0]  s;
        logic        half, above;
        f = f_mul(v, 32'h437f0000);
        if (f[31] || is_nan(f[30:0]) || f[30:0] == 31'd0)
            return 8'd0;
        if (f[30:0] >= 31'h437f0000)    // >= 255.0
            return 8'd255;
        if (f[30:23] < 8'd125)          // < 0.25
            return 8'd0;
        // f = m * 2^(e - 150): integer part m >> s, s = 150 - e (16..25)
        s = 8'd150 - f[30:23];
        m = {24'd0, 1'b1, f[22:0]};
        q = 8'(m >> s);
        half = m[6'(s - 8'd1)];
        above = (m & ((48'd1 << (s - 8'd1)) - 48'd1)) != 48'd0;
        if (half && (above || q[0]))
            q = q + 8'd1;
        return q;
    endfunction

    // ---- integer helpers --------------------------------------------------------------
    function automatic logic [31:0] v8(input logic [31:0] a, input logic [31:0] b,
                                       input logic [2:0] kind);
        logic [31:0] r;
        logic [8:0]  sum;
        logic [15:0] n;
        logic [7:0]  x, y, z;
        r = 32'd0;
        for (int i = 0; i < 4; i++) begin
            x = a[8 * i +: 8];
            y = b[8 * i +: 8];
            case (kind)
                3'd0: begin sum = {1'b0, x} + {1'b0, y}; z = sum[8] ? 8'hff : sum[7:0]; end
                3'd1: z = x > y ? x - y : 8'd0;
                3'd2: z = x < y ? x : y;
                3'd3: z = x > y ? x : y;
                default: begin
                    n = 16'(x) * 16'(y) + 16'd127;          // (x*y + 127) / 255:
                    n = (n + 16'd1 + (n >> 8)) >> 8;        // exact for n <= 65152
                    z = n[7:0];
                end
            endcase
            r[8 * i +: 8] = z;
        end
        return r;
    endfunction

    function automatic logic [5:0] clz(input logic [31:0] a);
        logic [5:0] n;
        n = 6'd32;
        for (int i = 0; i < 32; i++)
            if (a[i])
                n = 6'(31 - i);
        return n;
    endfunction

    function automatic logic [31:0] unpack_a(input logic [31:0] v, input logic [2:0] mode,
                                             input logic to_float);
        logic [15:0] h;
        logic [7:0]  b;
        case (mode)
            3'd1, 3'd2: begin
                h = mode == 3'd1 ? v[15:0] : v[31:16];
                return to_float ? half_to_float(h) : {{16{h[15]}}, h};
            end
            3'd3: return {4{v[31:24]}};
            3'd4, 3'd5, 3'd6, 3'd7: begin
                b = v[8 * (mode - 3'd4) +: 8];
                return to_float ? byte_to_float(b) : {24'd0, b};
            end
            default: return v;
        endcase
    endfunction

    function automatic logic [31:0] unpack_r4(input logic [31:0] v, input logic [2:0] mode);
        return unpack_a(v, mode, mode != 3'd0 && mode != 3'd3);
    endfunction

    // ---- the ALUs ---------------------------------------------------------------------
    typedef struct packed {
        logic [31:0] value;
        logic        carry;
        logic        is_float;
        logic        has_wide;     // add/sub: sat32 is the saturated exact result
        logic [31:0] sat32;
    } alu_out_t;

    function automatic alu_out_t add_alu(input logic [4:0] op, input logic [31:0] a,
                                         input logic [31:0] b);
        alu_out_t    o;
        logic [31:0] fa, fb;
        logic [32:0] wide;
        logic [4:0]  sh;
        fa = flush(a);
        fb = flush(b);
        sh = b[4:0];
        o = '0;
        o.is_float = (op >= 5'd1 && op <= 5'd6) || op == 5'd8;
        case (op)
            5'd1: o.value = f_add(a, b, 1'b0);
            5'd2: o.value = f_add(a, b, 1'b1);
            5'd3: begin o.value = f_lt(fa, fb) ? fa : fb; o.carry = f_lt(fb, fa); end
            5'd4: begin o.value = f_lt(fb, fa) ? fa : fb; o.carry = f_lt(fb, fa); end
            5'd5: begin
                o.value = f_lt(f_abs(fa[30:0]), f_abs(fb[30:0])) ? f_abs(fa[30:0]) : f_abs(fb[30:0]);
                o.carry = f_lt(f_abs(fb[30:0]), f_abs(fa[30:0]));
            end
            5'd6: begin
                o.value = f_lt(f_abs(fb[30:0]), f_abs(fa[30:0])) ? f_abs(fa[30:0]) : f_abs(fb[30:0]);
                o.carry = f_lt(f_abs(fb[30:0]), f_abs(fa[30:0]));
            end
            5'd7: o.value = ftoi(a);
            5'd8: o.value = itof(a);
            5'd12, 5'd13: begin
                wide = op == 5'd12 ? {a[31], a} + {b[31], b} : {a[31], a} - {b[31], b};
                o.value = op == 5'd12 ? a + b : a - b;
                o.carry = op == 5'd12 ? o.value < a : a < b;
                o.has_wide = 1'b1;
                o.sat32 = wide[32] != wide[31] ? (wide[32] ? 32'h80000000 : 32'h7fffffff)
                                               : wide[31:0];
            end
            5'd14: o.value = a >> sh;
            5'd15: o.value = $signed(a) >>> sh;
            5'd16: o.value = 32'({a, a} >> sh);
            5'd17: o.value = a << sh;
            5'd18: begin
                o.value = $signed(a) < $signed(b) ? a : b;
                o.carry = $signed(a) > $signed(b);
            end
            5'd19: begin
                o.value = $signed(a) > $signed(b) ? a : b;
                o.carry = $signed(a) > $signed(b);
            end
            5'd20: o.value = a & b;
            5'd21: o.value = a | b;
            5'd22: o.value = a ^ b;
            5'd23: o.value = ~a;
            5'd24: o.value = {26'd0, clz(a)};
            5'd30: o.value = v8(a, b, 3'd0);
            5'd31: o.value = v8(a, b, 3'd1);
            default: o.value = 32'd0;
        endcase
        return o;
    endfunction

    function automatic alu_out_t mul_alu(input logic [2:0] op, input logic [31:0] a,
                                         input logic [31:0] b);
        alu_out_t    o;
        o = '0;
        case (op)
            3'd1: begin o.value = f_mul(a, b); o.is_float = 1'b1; end
            3'd2: o.value = {8'd0, a[23:0]} * {8'd0, b[23:0]};  // low 32 bits
            3'd3: o.value = v8(a, b, 3'd4);
            3'd4: o.value = v8(a, b, 3'd2);
            3'd5: o.value = v8(a, b, 3'd3);
            3'd6: o.value = v8(a, b, 3'd0);
            3'd7: o.value = v8(a, b, 3'd1);
            default: o.value = 32'd0;
        endcase
        return o;
    endfunction

    // ---- packs ------------------------------------------------------------------------
    function automatic logic [7:0] sat_u8(input logic [31:0] v);
        if (v[31])
            return 8'd0;
        return v > 32'd255 ? 8'hff : v[7:0];
    endfunction

    function automatic logic [15:0] sat_s16(input logic [31:0] v);
        if ($signed(v) < -32'sd32768)
            return 16'h8000;
        if ($signed(v) > 32'sd32767)
            return 16'h7fff;
        return v[15:0];
    endfunction

    function automatic logic [31:0] pack_a(input logic [31:0] value, input logic is_float,
                                           input logic has_wide, input logic [31:0] sat32,
                                           input logic [3:0] mode, input logic [31:0] old);
        logic [15:0] h;
        logic [7:0]  b;
        logic [31:0] r;
        r = old;
        case (mode)
            4'd0: r = value;
            4'd1, 4'd2, 4'd9, 4'd10: begin
                h = is_float ? float_to_half(value)
                  : mode >= 4'd9 ? sat_s16(value) : value[15:0];
                if (mode == 4'd2 || mode == 4'd10)
                    r[31:16] = h;
                else
                    r[15:0] = h;
            end
            4'd3: r = {4{value[7:0]}};
            4'd11: r = {4{sat_u8(value)}};
            4'd8: r = has_wide ? sat32 : value;
            default: begin
                b = mode >= 4'd12 ? sat_u8(value) : value[7:0];
                r[8 * 32'(mode[1:0]) +: 8] = b;
            end
        endcase
        return r;
    endfunction

    function automatic logic [31:0] pack_mul(input logic [31:0] v, input logic [3:0] mode,
                                             input logic [31:0] old);
        logic [7:0]  c;
        logic [31:0] r;
        if (mode < 4'd3 || mode > 4'd7)
            return v;
        c = float_to_byte(v);
        if (mode == 4'd3)
            return {4{c}};
        r = old;
        r[8 * 32'(mode[1:0]) +: 8] = c;
        return r;
    endfunction

    function automatic logic cond_pass(input logic [2:0] cond, input logic z, input logic n,
                                       input logic c);
        case (cond)
            3'd0: return 1'b0;
            3'd1: return 1'b1;
            3'd2: return z;
            3'd3: return ~z;
            3'd4: return n;
            3'd5: return ~n;
            3'd6: return c;
            default: return ~c;
        endcase
    endfunction

    // ---- stage 1: input registers -----------------------------------------------------
    logic             s1_valid;
    logic [7:0]       s1_tag;
    logic [4:0]       s1_op_add;
    logic [2:0]       s1_op_mul, s1_mux_add_a, s1_mux_add_b, s1_mux_mul_a, s1_mux_mul_b;
    logic             s1_pm, s1_sf, s1_add_pack_a, s1_mul_pack_a;
    logic [2:0]       s1_unpack, s1_cond_add, s1_cond_mul;
    logic [3:0]       s1_pack, s1_z, s1_n, s1_c;
    logic [3:0][31:0] s1_add_a, s1_add_b, s1_mul_a, s1_mul_b, s1_add_old, s1_mul_old;

    always_ff @(posedge clk) begin
        if (!rst_n) begin
            s1_valid <= 1'b0;
        end else begin
            s1_valid <= in_valid;
            if (in_valid) begin
                s1_tag <= in_tag;
                s1_op_add <= op_add;
                s1_op_mul <= op_mul;
                s1_mux_add_a <= mux_add_a;
                s1_mux_add_b <= mux_add_b;
                s1_mux_mul_a <= mux_mul_a;
                s1_mux_mul_b <= mux_mul_b;
                s1_pm <= pm;
                s1_unpack <= unpack;
                s1_pack <= pack;
                s1_cond_add <= cond_add;
                s1_cond_mul <= cond_mul;
                s1_sf <= sf;
                s1_add_pack_a <= add_pack_a;
                s1_mul_pack_a <= mul_pack_a;
                s1_z <= flag_z_in;
                s1_n <= flag_n_in;
                s1_c <= flag_c_in;
                s1_add_a <= add_a;
                s1_add_b <= add_b;
                s1_mul_a <= mul_a;
                s1_mul_b <= mul_b;
                s1_add_old <= add_old;
                s1_mul_old <= mul_old;
            end
        end
    end

    // ---- stage 2: unpack and the ALUs ---------------------------------------------------
    logic float_use, add_active, mul_active;
    always_comb begin
        float_use = (s1_op_add >= 5'd1 && s1_op_add <= 5'd7 && s1_mux_add_a == MUX_RA) ||
                    (s1_op_add >= 5'd1 && s1_op_add <= 5'd6 && s1_mux_add_b == MUX_RA) ||
                    (s1_op_mul == 3'd1 && (s1_mux_mul_a == MUX_RA || s1_mux_mul_b == MUX_RA));
        add_active = s1_op_add != 5'd0 && s1_cond_add != 3'd0;
        mul_active = s1_op_mul != 3'd0 && s1_cond_mul != 3'd0;
    end

    function automatic logic [31:0] operand(input logic [31:0] v, input logic [2:0] mux,
                                            input logic pm_bit, input logic [2:0] mode,
                                            input logic to_float);
        if (!pm_bit && mux == MUX_RA)
            return unpack_a(v, mode, to_float);
        if (pm_bit && mux == MUX_R4)
            return unpack_r4(v, mode);
        return v;
    endfunction

    alu_out_t [3:0] s2_add, s2_mul;
    logic       s2_valid;
    logic [7:0] s2_tag;
    logic       s2_pm, s2_sf, s2_add_pack_a, s2_mul_pack_a, s2_add_active, s2_mul_active;
    logic [3:0] s2_pack, s2_z, s2_n, s2_c;
    logic [2:0] s2_cond_add, s2_cond_mul;
    logic [3:0][31:0] s2_add_old, s2_mul_old;

    always_ff @(posedge clk) begin
        if (!rst_n) begin
            s2_valid <= 1'b0;
        end else begin
            s2_valid <= s1_valid;
            if (s1_valid) begin
                for (int i = 0; i < 4; i++) begin
                    s2_add[i] <= add_alu(s1_op_add,
                        operand(s1_add_a[i], s1_mux_add_a, s1_pm, s1_unpack, float_use),
                        operand(s1_add_b[i], s1_mux_add_b, s1_pm, s1_unpack, float_use));
                    s2_mul[i] <= mul_alu(s1_op_mul,
                        operand(s1_mul_a[i], s1_mux_mul_a, s1_pm, s1_unpack, float_use),
                        operand(s1_mul_b[i], s1_mux_mul_b, s1_pm, s1_unpack, float_use));
                end
                s2_tag <= s1_tag;
                s2_pm <= s1_pm;
                s2_sf <= s1_sf;
                s2_pack <= s1_pack;
                s2_add_pack_a <= s1_add_pack_a;
                s2_mul_pack_a <= s1_mul_pack_a;
                s2_add_active <= add_active;
                s2_mul_active <= mul_active;
                s2_cond_add <= s1_cond_add;
                s2_cond_mul <= s1_cond_mul;
                s2_z <= s1_z;
                s2_n <= s1_n;
                s2_c <= s1_c;
                s2_add_old <= s1_add_old;
                s2_mul_old <= s1_mul_old;
            end
        end
    end

    // ---- stage 3: packs, conditions, flags; the output registers ------------------------
    function automatic logic zero_of(input logic [31:0] value, input logic is_float);
        return is_float ? value[30:0] == 31'd0 : value == 32'd0;
    endfunction

    logic [3:0] aw, mw;
    always_comb
        for (int i = 0; i < 4; i++) begin
            aw[i] = s2_add_active && cond_pass(s2_cond_add, s2_z[i], s2_n[i], s2_c[i]);
            mw[i] = s2_mul_active && cond_pass(s2_cond_mul, s2_z[i], s2_n[i], s2_c[i]);
        end

    always_ff @(posedge clk) begin
        if (!rst_n) begin
            out_valid <= 1'b0;
        end else begin
            out_valid <= s2_valid;
            if (s2_valid) begin
                out_tag <= s2_tag;
                add_write <= aw;
                mul_write <= mw;
                for (int i = 0; i < 4; i++) begin
                    add_value[i] <= !s2_pm && s2_add_pack_a
                                        ? pack_a(s2_add[i].value, s2_add[i].is_float, s2_add[i].has_wide, s2_add[i].sat32, s2_pack, s2_add_old[i])
                                        : s2_add[i].value;
                    mul_value[i] <= !s2_pm && s2_mul_pack_a
                                        ? pack_a(s2_mul[i].value, s2_mul[i].is_float, s2_mul[i].has_wide, s2_mul[i].sat32, s2_pack, s2_mul_old[i])
                                  : s2_pm ? pack_mul(s2_mul[i].value, s2_pack, s2_mul_old[i])
                                        : s2_mul[i].value;
                    if (s2_sf && s2_add_active && aw[i]) begin
                        flag_z_out[i] <= zero_of(s2_add[i].value, s2_add[i].is_float);
                        flag_n_out[i] <= s2_add[i].value[31];
                        flag_c_out[i] <= s2_add[i].carry;
                    end else if (s2_sf && !s2_add_active && s2_mul_active && mw[i]) begin
                        flag_z_out[i] <= zero_of(s2_mul[i].value, s2_mul[i].is_float);
                        flag_n_out[i] <= s2_mul[i].value[31];
                        flag_c_out[i] <= s2_mul[i].carry;
                    end else begin
                        flag_z_out[i] <= s2_z[i];
                        flag_n_out[i] <= s2_n[i];
                        flag_c_out[i] <= s2_c[i];
                    end
                end
            end
        end
    end
endmodule
