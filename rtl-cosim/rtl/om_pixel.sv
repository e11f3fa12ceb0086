// rtl-cosim/rtl/om_pixel.sv - the pixel back end's datapath: the colour
// calculator's float part and bit part, and the depth/stencil test.
//
// Same behaviour as the C block it stands in for (units/om/om_color.h
// om_color_compute / om_color_bits, units/common/depth_stencil.h ds_test),
// which state the rules with their seed lines (seed 003):
//  - OP_COLOR (L16518-16627): pre-blend clamp of source, destination and
//    constant to [lo, hi]; per channel src*SF OP dst*DF with the factor table
//    (L16585-16606: ONE ZERO SRC_COLOR SRC_ALPHA DST_ALPHA DST_COLOR
//    SRC_ALPHA_SATURATE CONST_COLOR CONST_ALPHA SRC1_COLOR SRC1_ALPHA and the
//    INV_ ones, genxml encodings) and the functions ADD SUBTRACT
//    REVERSE_SUBTRACT MIN MAX (L16612-16617, factors applied), the alpha
//    channel with its own factors/function under Independent Alpha Blend
//    Enable; post-blend clamp. Unknown encodings read as ZERO / ADD and raise
//    color_bad.
//  - OP_BITS (L16657-16675, L16713-16721): one 32-bit word of the packed
//    texel: the 16 logic ops (genxml 3D_Logic_Op_Function) when enabled, then
//    the bits of disabled channels from the destination.
//  - OP_DEPTH (L16488-16516, L16677-16711): stencil test through the test
//    mask (front or back face set), depth test of the source depth clamped to
//    the CC viewport against the stored value (D32_FLOAT as floats; D24/D16
//    UNORM as integers of the clamped depth, round half up), the stencil op
//    of the outcome through the write mask, depth write on a pass.
// Numbers: IEEE single precision as the C block computes it on x86-64 SSE
// (round to nearest even, denormals kept as operands and results); min/max
// as the C block's (om_color.c min_of/max_of: a NaN operand loses to a
// number; equal operands, -0 and +0 among them, give the second). NaN results are the quiet NaN
// 0x7fc00000: the C block's NaN payloads follow the compiler's operand order,
// so the comparison takes every NaN as equal (rtl-cosim/om_cosim.h).
// Not modelled (as in the C block): dithering, blend in other precisions.
//
// Interface: a request on a rising edge with in_valid is answered two edges
// later (out_valid high after that edge: input registers, the datapath, the
// output registers); one request per clock, no back-pressure.
//
// `define BROKEN plants one bug (DECRSAT wraps 0 to 0xff) so the checker can
// be shown to fail.

module om_pixel (
    input  logic             clk,
    input  logic             rst_n,

    input  logic             in_valid,
    input  logic [1:0]       in_op,             // 0 colour, 1 bits, 2 depth
    // OP_COLOR
    input  logic             c_blend,
    input  logic             c_pre_clamp,
    input  logic             c_post_clamp,
    input  logic             c_independent_alpha,
    input  logic [7:0]       c_sf, c_df, c_fn,  // colour factors and function
    input  logic [7:0]       c_saf, c_daf, c_afn,   // alpha ones
    input  logic [31:0]      c_lo, c_hi,
    input  logic [3:0][31:0] c_src, c_src1, c_dst, c_const,
    // OP_BITS
    input  logic             b_logic,
    input  logic [3:0]       b_op,
    input  logic [31:0]      b_src, b_dst, b_keep,
    // OP_DEPTH (functions and ops 8..15: unknown encodings, as the C block's defaults)
    input  logic             d_depth_test, d_depth_write,
    input  logic [3:0]       d_depth_function,
    input  logic             d_stencil_test, d_stencil_write, d_double_sided, d_back_facing,
    input  logic [3:0]       d_front_function, d_front_fail, d_front_depth_fail, d_front_pass,
    input  logic [7:0]       d_front_test_mask, d_front_write_mask, d_front_reference,
    input  logic [3:0]       d_back_function, d_back_fail, d_back_depth_fail, d_back_pass,
    input  logic [7:0]       d_back_test_mask, d_back_write_mask, d_back_reference,
    input  logic [31:0]      d_min_depth, d_max_depth,
    input  logic [2:0]       d_format,          // 1 D32_FLOAT, 3 D24_UNORM_X8, 5 D16_UNORM
    input  logic [31:0]      d_source_depth, d_depth,
    input  logic [7:0]       d_stencil,

    output logic             out_valid,
    output logic [3:0][31:0] color_out,
    output logic             color_bad,
    output logic [31:0]      bits_out,
    output logic [4:0]       ds_flags,          // PASS STENCIL_FAILED DEPTH_FAILED DEPTH_WRITTEN STENCIL_WRITTEN
    output logic [31:0]      ds_depth,
    output logic [7:0]       ds_stencil
);
    localparam logic [31:0] F_ONE = 32'h3f800000, F_ZERO = 32'h0, F_QNAN = 32'h7fc00000;

    // ---- IEEE single helpers --------------------------------------------------
    function automatic logic is_nan(input logic [30:0] a);
        return a[30:23] == 8'hff && a[22:0] != 0;
    endfunction
    function automatic logic is_inf(input logic [30:0] a);
        return a[30:23] == 8'hff && a[22:0] == 0;
    endfunction
    function automatic logic is_zero(input logic [30:0] a);
        return a[30:0] == 0;
    endfunction

    // a < b, a == b (IEEE: NaN unordered, -0 == +0)
    function automatic logic f_lt(input logic [31:0] a, input logic [31:0] b);
        if (is_nan(a[30:0]) || is_nan(b[30:0]) || (is_zero(a[30:0]) && is_zero(b[30:0])))
            return 1'b0;
        if (a[31] != b[31])
            return a[31];
        return a[31] ? a[30:0] > b[30:0] : a[30:0] < b[30:0];
    endfunction
    function automatic logic f_eq(input logic [31:0] a, input logic [31:0] b);
        if (is_nan(a[30:0]) || is_nan(b[30:0]))
            return 1'b0;
        return a == b || (is_zero(a[30:0]) && is_zero(b[30:0]));
    endfunction

    // m x 2^k (m != 0 or not) rounded to nearest even and packed with sign s.
    localparam int W = 51;
    function automatic logic [31:0] round_pack(input logic s, input logic [W-1:0] m,
                                               input logic signed [11:0] k);
        int lead;
        logic signed [12:0] e, sh;
        logic [W-1:0] q, rest, sum;
        logic guard, sticky, up;
        lead = -1;
        for (int i = 0; i < W; i++)
            if (m[i])
                lead = i;
        if (lead < 0)
            return {s, 31'b0};
        e = 13'(lead) + 13'(k) + 13'sd127;
        sh = e >= 1 ? 13'(lead) - 13'sd23 : -13'sd149 - 13'(k);
        if (e < 1)
            e = 0;
        if (sh <= 0) begin
            q = m << (-sh);
            guard = 1'b0;
            sticky = 1'b0;
        end else if (sh > 13'(W)) begin
            q = '0;
            guard = 1'b0;
            sticky = 1'b1;
        end else begin
            q = m >> sh;
            guard = m[sh-1];
            rest = m & ((W'(1) << (sh - 1)) - W'(1));
            sticky = rest != 0;
        end
        up = guard && (sticky || q[0]);
        sum = (e == 0 ? W'(0) : (W'(e) - W'(1)) << 23) + q + W'(up);
        if (sum >= W'(32'h7f800000))
            return {s, 31'h7f800000};
        return {s, sum[30:0]};
    endfunction

    function automatic logic [23:0] mant(input logic [30:0] a);
        return a[30:23] == 0 ? {1'b0, a[22:0]} : {1'b1, a[22:0]};
    endfunction
    function automatic logic [7:0] expo(input logic [7:0] biased);
        return biased == 0 ? 8'd1 : biased;
    endfunction

    function automatic logic [31:0] f_mul(input logic [31:0] a, input logic [31:0] b);
        logic s;
        s = a[31] ^ b[31];
        if (is_nan(a[30:0]) || is_nan(b[30:0]) || (is_inf(a[30:0]) && is_zero(b[30:0])) || (is_zero(a[30:0]) && is_inf(b[30:0])))
            return F_QNAN;
        if (is_inf(a[30:0]) || is_inf(b[30:0]))
            return {s, 31'h7f800000};
        if (is_zero(a[30:0]) || is_zero(b[30:0]))
            return {s, 31'b0};
        return round_pack(s, W'(mant(a[30:0])) * W'(mant(b[30:0])),
                          12'(expo(a[30:23])) + 12'(expo(b[30:23])) - 12'sd300);
    endfunction

    function automatic logic [31:0] f_add(input logic [31:0] a, input logic [31:0] b);
        logic [31:0] x, y;
        logic [W-1:0] mx, my, lost, sum;
        logic [8:0] d;
        if (is_nan(a[30:0]) || is_nan(b[30:0]) || (is_inf(a[30:0]) && is_inf(b[30:0]) && a[31] != b[31]))
            return F_QNAN;
        if (is_inf(a[30:0]))
            return a;
        if (is_inf(b[30:0]))
            return b;
        if (is_zero(a[30:0]) && is_zero(b[30:0]))
            return {a[31] & b[31], 31'b0};
        // x: the larger magnitude
        if (a[30:0] >= b[30:0]) begin
            x = a;
            y = b;
        end else begin
            x = b;
            y = a;
        end
        d = 9'(expo(x[30:23])) - 9'(expo(y[30:23]));
        mx = W'(mant(x[30:0])) << 26;
        my = W'(mant(y[30:0])) << 26;
        if (d >= 9'(W)) begin
            lost = my;
            my = '0;
        end else begin
            lost = my & ((W'(1) << d) - W'(1));
            my = my >> d;
        end
        my[0] = my[0] | (lost != 0);    // sticky: below the rounding position (d >= 2)
        sum = x[31] == y[31] ? mx + my : mx - my;
        if (sum == 0)
            return F_ZERO;
        return round_pack(x[31], sum, 12'(expo(x[30:23])) - 12'sd176);
    endfunction

    function automatic logic [31:0] f_sub(input logic [31:0] a, input logic [31:0] b);
        return f_add(a, {~b[31], b[30:0]});
    endfunction

    // om_color.c min_of / max_of: a < b ? a : b (a > b ? a : b) on numbers
    function automatic logic [31:0] f_min(input logic [31:0] a, input logic [31:0] b);
        if (is_nan(a[30:0]))
            return b;
        if (is_nan(b[30:0]))
            return a;
        return f_lt(a, b) ? a : b;
    endfunction
    function automatic logic [31:0] f_max(input logic [31:0] a, input logic [31:0] b);
        if (is_nan(a[30:0]))
            return b;
        if (is_nan(b[30:0]))
            return a;
        return f_lt(b, a) ? a : b;
    endfunction

    // if (c < lo) lo; else if (c > hi) hi (NaN stays)
    function automatic logic [31:0] f_clamp(input logic [31:0] c, input logic [31:0] lo,
                                            input logic [31:0] hi);
        if (f_lt(c, lo))
            return lo;
        if (f_lt(hi, c))
            return hi;
        return c;
    endfunction

    // ---- input registers ---------------------------------------------------------
    logic             r_valid;
    logic [1:0]       r_op;
    logic             r_blend, r_pre, r_post, r_ia;
    logic [7:0]       r_sf, r_df, r_fn, r_saf, r_daf, r_afn;
    logic [31:0]      r_lo, r_hi;
    logic [3:0][31:0] r_src, r_src1, r_dst, r_const;
    logic             r_logic;
    logic [3:0]       r_bop;
    logic [31:0]      r_bsrc, r_bdst, r_bkeep;
    logic             r_dt, r_dw, r_st, r_sw, r_ds, r_bf;
    logic [3:0]       r_dfunc;
    logic [3:0]       r_ff, r_ffail, r_fdfail, r_fpass, r_bfunc, r_bfail, r_bdfail, r_bpass;
    logic [7:0]       r_ftm, r_fwm, r_fref, r_btm, r_bwm, r_bref;
    logic [31:0]      r_min, r_max, r_z, r_depth;
    logic [2:0]       r_format;
    logic [7:0]       r_stencil;

    always_ff @(posedge clk) begin
        if (!rst_n)
            r_valid <= 1'b0;
        else
            r_valid <= in_valid;
        if (in_valid) begin
            r_op <= in_op;
            r_blend <= c_blend; r_pre <= c_pre_clamp; r_post <= c_post_clamp;
            r_ia <= c_independent_alpha;
            r_sf <= c_sf; r_df <= c_df; r_fn <= c_fn; r_saf <= c_saf; r_daf <= c_daf;
            r_afn <= c_afn;
            r_lo <= c_lo; r_hi <= c_hi;
            r_src <= c_src; r_src1 <= c_src1; r_dst <= c_dst; r_const <= c_const;
            r_logic <= b_logic; r_bop <= b_op; r_bsrc <= b_src; r_bdst <= b_dst;
            r_bkeep <= b_keep;
            r_dt <= d_depth_test; r_dw <= d_depth_write; r_dfunc <= d_depth_function;
            r_st <= d_stencil_test; r_sw <= d_stencil_write; r_ds <= d_double_sided;
            r_bf <= d_back_facing;
            r_ff <= d_front_function; r_ffail <= d_front_fail; r_fdfail <= d_front_depth_fail;
            r_fpass <= d_front_pass; r_ftm <= d_front_test_mask; r_fwm <= d_front_write_mask;
            r_fref <= d_front_reference;
            r_bfunc <= d_back_function; r_bfail <= d_back_fail; r_bdfail <= d_back_depth_fail;
            r_bpass <= d_back_pass; r_btm <= d_back_test_mask; r_bwm <= d_back_write_mask;
            r_bref <= d_back_reference;
            r_min <= d_min_depth; r_max <= d_max_depth; r_format <= d_format;
            r_z <= d_source_depth; r_depth <= d_depth; r_stencil <= d_stencil;
        end
    end

    // ---- OP_COLOR --------------------------------------------------------------------
    // the factor `f` for channel c; bad for an encoding outside the table
    function automatic logic [32:0] factor(input logic [7:0] f, input int c,
                                           input logic [3:0][31:0] s,
                                           input logic [3:0][31:0] s1,
                                           input logic [3:0][31:0] d,
                                           input logic [3:0][31:0] k);
        case (f)
            8'd1: return {1'b0, F_ONE};
            8'd17: return {1'b0, F_ZERO};
            8'd2: return {1'b0, s[c]};
            8'd3: return {1'b0, s[3]};
            8'd4: return {1'b0, d[3]};
            8'd5: return {1'b0, d[c]};
            8'd6: return {1'b0, c == 3 ? F_ONE : f_min(f_sub(F_ONE, d[3]), s[3])};
            8'd7: return {1'b0, k[c]};
            8'd8: return {1'b0, k[3]};
            8'd9: return {1'b0, s1[c]};
            8'd10: return {1'b0, s1[3]};
            8'd18: return {1'b0, f_sub(F_ONE, s[c])};
            8'd19: return {1'b0, f_sub(F_ONE, s[3])};
            8'd20: return {1'b0, f_sub(F_ONE, d[3])};
            8'd21: return {1'b0, f_sub(F_ONE, d[c])};
            8'd23: return {1'b0, f_sub(F_ONE, k[c])};
            8'd24: return {1'b0, f_sub(F_ONE, k[3])};
            8'd25: return {1'b0, f_sub(F_ONE, s1[c])};
            8'd26: return {1'b0, f_sub(F_ONE, s1[3])};
            default: return {1'b1, F_ZERO};
        endcase
    endfunction

    function automatic logic [32:0] blend_fn(input logic [7:0] fn, input logic [31:0] st,
                                             input logic [31:0] dt);
        case (fn)
            8'd0: return {1'b0, f_add(st, dt)};
            8'd1: return {1'b0, f_sub(st, dt)};
            8'd2: return {1'b0, f_sub(dt, st)};
            8'd3: return {1'b0, f_min(st, dt)};
            8'd4: return {1'b0, f_max(st, dt)};
            default: return {1'b1, f_add(st, dt)};
        endcase
    endfunction

    logic [3:0][31:0] col, cdst, cconst, blended;
    logic [3:0]       chan_bad;
    always_comb begin
        for (int c = 0; c < 4; c++) begin
            col[c] = r_pre ? f_clamp(r_src[c], r_lo, r_hi) : r_src[c];
            cdst[c] = r_pre ? f_clamp(r_dst[c], r_lo, r_hi) : r_dst[c];
            cconst[c] = r_pre ? f_clamp(r_const[c], r_lo, r_hi) : r_const[c];
        end
        for (int c = 0; c < 4; c++) begin
            logic alpha;
            logic [32:0] sfv, dfv, res;
            alpha = c == 3 && r_ia;
            sfv = factor(alpha ? r_saf : r_sf, c, col, r_src1, cdst, cconst);
            dfv = factor(alpha ? r_daf : r_df, c, col, r_src1, cdst, cconst);
            res = blend_fn(alpha ? r_afn : r_fn, f_mul(col[c], sfv[31:0]),
                           f_mul(cdst[c], dfv[31:0]));
            chan_bad[c] = sfv[32] | dfv[32] | res[32];
            blended[c] = r_post ? f_clamp(res[31:0], r_lo, r_hi) : res[31:0];
        end
    end

    // ---- OP_BITS -----------------------------------------------------------------------
    logic [31:0] logic_result;
    always_comb begin
        case (r_bop)
            4'd0: logic_result = 32'h0;
            4'd1: logic_result = ~(r_bsrc | r_bdst);
            4'd2: logic_result = ~r_bsrc & r_bdst;
            4'd3: logic_result = ~r_bsrc;
            4'd4: logic_result = r_bsrc & ~r_bdst;
            4'd5: logic_result = ~r_bdst;
            4'd6: logic_result = r_bsrc ^ r_bdst;
            4'd7: logic_result = ~(r_bsrc & r_bdst);
            4'd8: logic_result = r_bsrc & r_bdst;
            4'd9: logic_result = ~(r_bsrc ^ r_bdst);
            4'd10: logic_result = r_bdst;
            4'd11: logic_result = ~r_bsrc | r_bdst;
            4'd12: logic_result = r_bsrc;
            4'd13: logic_result = r_bsrc | ~r_bdst;
            4'd14: logic_result = r_bsrc | r_bdst;
            default: logic_result = 32'hffffffff;
        endcase
    end
    wire [31:0] bits_result = ((r_logic ? logic_result : r_bsrc) & ~r_bkeep) | (r_bdst & r_bkeep);

    // ---- OP_DEPTH ----------------------------------------------------------------------
    function automatic logic compare_u(input logic [3:0] fn, input logic [31:0] a,
                                       input logic [31:0] b);
        case (fn)
            4'd0: return 1'b1;
            4'd1: return 1'b0;
            4'd2: return a < b;
            4'd3: return a == b;
            4'd4: return a <= b;
            4'd5: return a > b;
            4'd6: return a != b;
            4'd7: return a >= b;
            default: return 1'b0;
        endcase
    endfunction
    function automatic logic compare_f(input logic [3:0] fn, input logic [31:0] a,
                                       input logic [31:0] b);
        case (fn)
            4'd0: return 1'b1;
            4'd1: return 1'b0;
            4'd2: return f_lt(a, b);
            4'd3: return f_eq(a, b);
            4'd4: return f_lt(a, b) || f_eq(a, b);
            4'd5: return f_lt(b, a);
            4'd6: return !f_eq(a, b);
            4'd7: return f_lt(b, a) || f_eq(a, b);
            default: return 1'b0;
        endcase
    endfunction
    function automatic logic [7:0] stencil_apply(input logic [3:0] op, input logic [7:0] v,
                                                 input logic [7:0] ref_value);
        case (op)
            4'd0: return v;
            4'd1: return 8'h00;
            4'd2: return ref_value;
            4'd3: return v == 8'hff ? 8'hff : v + 8'd1;
`ifdef BROKEN
            4'd4: return v - 8'd1;
`else
            4'd4: return v == 8'h00 ? 8'h00 : v - 8'd1;
`endif
            4'd5: return v + 8'd1;
            4'd6: return v - 8'd1;
            4'd7: return ~v;
            default: return v;
        endcase
    endfunction
    // UNORM depth of `bits` integer bits: 0 for NaN and v <= 0, all ones for
    // v >= 1, else floor(v * (2^bits - 1) + 1/2) (exact: the C block's double
    // product of a float and a 24-bit integer is exact, and so is its sum with
    // 1/2 wherever it can reach 1/2).
    function automatic logic [31:0] unorm_encode(input logic [31:0] v, input logic d16);
        logic [47:0] p;
        logic [7:0] sh;
        logic [48:0] sum;
        if (is_nan(v[30:0]) || v[31] || is_zero(v[30:0]))
            return 32'h0;
        if (!f_lt(v, F_ONE))
            return d16 ? 32'hffff : 32'hffffff;
        p = 48'(mant(v[30:0])) * (d16 ? 48'hffff : 48'hffffff);
        sh = 8'd150 - expo(v[30:23]);          // v < 1: sh >= 24
        if (sh > 8'd49)
            return 32'h0;
        sum = 49'(p) + (49'(1) << (sh - 8'd1));
        return 32'(sum >> sh);
    endfunction
    function automatic logic [31:0] depth_encode(input logic [2:0] format, input logic [31:0] z);
        case (format)
            3'd1: return z;
            3'd3: return unorm_encode(z, 1'b0);
            3'd5: return unorm_encode(z, 1'b1);
            default: return 32'h0;
        endcase
    endfunction

    logic [4:0]  d_flags;
    logic [31:0] d_depth_next;
    logic [7:0]  d_stencil_next;
    always_comb begin
        logic back, stencil_pass, depth_pass;
        logic [3:0] fn, fail_op, dfail_op, pass_op, op;
        logic [7:0] tmask, wmask, ref_value, applied, next;
        logic [31:0] z;
        back = r_bf && r_ds;
        fn = back ? r_bfunc : r_ff;
        fail_op = back ? r_bfail : r_ffail;
        dfail_op = back ? r_bdfail : r_fdfail;
        pass_op = back ? r_bpass : r_fpass;
        tmask = back ? r_btm : r_ftm;
        wmask = back ? r_bwm : r_fwm;
        ref_value = back ? r_bref : r_fref;
        d_flags = '0;
        d_depth_next = r_depth;
        d_stencil_next = r_stencil;
        op = 4'd0;
        applied = r_stencil;
        next = r_stencil;
        stencil_pass = 1'b1;
        if (r_st) begin
            stencil_pass = compare_u(fn, {24'h0, ref_value & tmask}, {24'h0, r_stencil & tmask});
            if (!stencil_pass) begin
                d_flags[1] = 1'b1;
                op = fail_op;
            end
        end
        depth_pass = 1'b1;
        z = r_z;
        if (stencil_pass && r_dt) begin
            if (!f_lt(r_max, r_min) && !is_nan(r_min[30:0]) && !is_nan(r_max[30:0])) begin
                if (f_lt(z, r_min))
                    z = r_min;
                if (f_lt(r_max, z))
                    z = r_max;
            end
            if (r_format == 3'd1)
                depth_pass = compare_f(r_dfunc, z, r_depth);
            else
                depth_pass = compare_u(r_dfunc, depth_encode(r_format, z),
                                       r_format == 3'd5 ? {16'h0, r_depth[15:0]}
                                                        : {8'h0, r_depth[23:0]});
            if (!depth_pass) begin
                d_flags[2] = 1'b1;
                op = dfail_op;
            end
        end
        if (stencil_pass && depth_pass) begin
            d_flags[0] = 1'b1;
            op = pass_op;
            if (r_dw) begin
                d_depth_next = depth_encode(r_format, z);
                d_flags[3] = 1'b1;
            end
        end
        if (r_st && r_sw) begin
            applied = stencil_apply(op, r_stencil, ref_value);
            next = (r_stencil & ~wmask) | (applied & wmask);
            if (next != r_stencil || op != 4'd0) begin
                d_stencil_next = next;
                d_flags[4] = 1'b1;
            end
        end
    end

    // ---- output registers -------------------------------------------------------------
    always_ff @(posedge clk) begin
        if (!rst_n)
            out_valid <= 1'b0;
        else
            out_valid <= r_valid;
        if (r_valid) begin
            color_out <= r_op == 2'd0 ? (r_blend ? blended : col) : '0;
            color_bad <= r_op == 2'd0 && r_blend && chan_bad != 0;
            bits_out <= r_op == 2'd1 ? bits_result : 32'h0;
            ds_flags <= r_op == 2'd2 ? d_flags : 5'h0;
            ds_depth <= r_op == 2'd2 ? d_depth_next : 32'h0;
            ds_stencil <= r_op == 2'd2 ? d_stencil_next : 8'h0;
        end
    end
endmodule
