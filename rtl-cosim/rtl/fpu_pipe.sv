// rtl-cosim/rtl/fpu_pipe.sv - the FPU pipe of one EU for four 32-bit lanes or
// two 64-bit (DF) lanes, the RTL of units/fpu (units/fpu/fpu.h has the
// semantics and lane layout, seed 003 line numbers there). Synthesizable
// SystemVerilog.
//
// Datapath per lane (combinational, in front of stage 0): source read (denormal
// flush by cr0.0[7], abs, neg), then one of
//   - the fused multiply-add core: round(s1*s2 + s0) exactly once; ADD is
//     s0*1.0 + s1 and MUL has no addend. The product (48 bits) and the addend
//     (24 bits) are aligned in an 80-bit window whose top is the larger
//     operand's top; bits falling below it are jammed into a sticky bit (only
//     an operand 32+ bits below the other can lose bits, and those lie far
//     under the rounding point). The sum is normalised on its leading one,
//     denormal results keep the fixed 2^-149 LSB, and the rounding increment
//     follows cr0.0[5:4] (RTNE, RU, RD, RTZ); carry-out and overflow (inf or
//     fmax by mode, L21611-21614) fall out of adding the rounded significand
//     to the biased exponent;
//   - NaN/inf/invalid rules, min/max, compare, F<->D/UD and D<->UD conversion;
//   - for DF the same functions at double width (fma_core_d: 106-bit product,
//     53-bit addend, 168-bit window, 2^-1074 LSB) and F<->DF, DF<->D/UD;
// then the condition flags (on the value written: converted and flushed, but
// before .sat; .o from inf results of finite sources and out-of-range
// conversions), .sat and the output flush. cr0.0[11] picks the IEEE or DX
// min/max sNaN rule; SEL and non-raw MOVs quieten sNaNs; int->F rounds by
// cr0.0[5:4] (units/fpu/fpu.h has the rules and their seed lines).
// The whole datapath sits in front of stage 0 (one cycle); the other stages
// only carry results - a timing-closed design would spread it over them.
// Pipeline: MAXD stages of {valid, tag, results, flags, status}; the result
// leaves from stage cfg_depth-1. The whole pipe moves when the last stage is
// empty or resp_ready is high (req_ready = that), else it holds.
// `define BROKEN plants one bug: round-up (RU) ignores the sticky bit, so
// results with guard 0 and sticky 1 are not rounded up.
module fpu_pipe #(
    parameter int MAXD = 16
) (
    input  logic        clk,
    input  logic        rst_n,
    input  logic [6:0]  cfg_depth,      // 1..MAXD
    input  logic        req_valid,
    output logic        req_ready,
    input  logic [7:0]  req_op,
    input  logic [7:0]  req_cond,
    input  logic [7:0]  req_mask,
    input  logic [7:0]  req_reserved,
    input  logic [31:0] req_ctrl,
    input  logic [31:0] req_mode,
    input  logic [31:0] req_pad,
    input  logic [31:0] req_src0 [4],
    input  logic [31:0] req_src1 [4],
    input  logic [31:0] req_src2 [4],
    input  logic [31:0] req_tag,
    output logic        resp_valid,
    input  logic        resp_ready,
    output logic [31:0] resp_result [4],
    output logic [3:0]  resp_flags,
    output logic        resp_status,
    output logic [31:0] resp_tag
);
    localparam logic [2:0] OP_ADD = 3'd0, OP_MUL = 3'd1, OP_MAD = 3'd2, OP_SEL = 3'd3,
                           OP_CMP = 3'd4, OP_MOV = 3'd5;
    localparam logic [3:0] CM_Z = 4'd1, CM_NZ = 4'd2, CM_G = 4'd3, CM_GE = 4'd4, CM_L = 4'd5,
                           CM_LE = 4'd6, CM_O = 4'd8, CM_U = 4'd9;
    localparam logic [31:0] QNAN_INDEF = 32'hffc00000;

    // ---- float helpers ----------------------------------------------------
    // (the helpers take whole words; some look at part of them)
    /* verilator lint_off UNUSEDSIGNAL */
    function automatic logic is_nan(input logic [31:0] u);
        return u[30:23] == 8'hff && u[22:0] != 0;
    endfunction
    function automatic logic is_inf(input logic [31:0] u);
        return u[30:23] == 8'hff && u[22:0] == 0;
    endfunction
    function automatic logic is_zero(input logic [31:0] u);
        return u[30:0] == 0;
    endfunction
    function automatic logic is_sub(input logic [31:0] u);
        return u[30:23] == 0 && u[22:0] != 0;
    endfunction
    function automatic logic [31:0] flush(input logic [31:0] u, input logic ftz);
        return (ftz && is_sub(u)) ? {u[31], 31'b0} : u;
    endfunction
    function automatic logic [31:0] quiet(input logic [31:0] u);
        return u | 32'h00400000;
    endfunction

    /* verilator lint_on UNUSEDSIGNAL */

    // Ordered relations on non-NaN values (-0 == +0).
    function automatic logic f_eq(input logic [31:0] a, input logic [31:0] b);
        return (is_zero(a) && is_zero(b)) || a == b;
    endfunction
    function automatic logic f_lt(input logic [31:0] a, input logic [31:0] b);
        if (is_zero(a) && is_zero(b)) return 1'b0;
        if (a[31] != b[31]) return a[31];
        if (!a[31]) return a[30:0] < b[30:0];
        return a[30:0] > b[30:0];
    endfunction

    // s0 cond s1 (cmp)
    function automatic logic rel(input logic [3:0] cm, input logic [31:0] a, input logic [31:0] b);
        logic n, eq, lt, gt;
        n = is_nan(a) || is_nan(b);
        eq = !n && f_eq(a, b);
        lt = !n && f_lt(a, b);
        gt = !n && f_lt(b, a);
        case (cm)
            CM_Z: return eq;
            CM_NZ: return !eq;
            CM_G: return gt;
            CM_GE: return gt || eq;
            CM_L: return lt;
            CM_LE: return lt || eq;
            CM_U: return n;
            default: return 1'b0;
        endcase
    endfunction

    // post condition on a float result
    function automatic logic cond_f(input logic [3:0] cm, input logic [31:0] u);
        logic n, z, s;
        n = is_nan(u);
        z = is_zero(u);
        s = u[31] && !z;
        case (cm)
            CM_Z: return z && !n;
            CM_NZ: return !(z && !n);
            CM_G: return !s && !z && !n;
            CM_GE: return (!s || z) && !n;
            CM_L: return s && !z && !n;
            CM_LE: return (s || z) && !n;
            CM_U: return n;
            default: return 1'b0;
        endcase
    endfunction

    // post condition of an integer destination x converted from a float
    // (NaN forces the relations false; of: out of range, for .o)
    function automatic logic cond_conv(input logic [3:0] cm, input logic signed [35:0] x,
                                       input logic n, input logic of);
        case (cm)
            CM_O: return of;
            CM_U: return n;
            CM_Z: return x == 0 && !n;
            CM_NZ: return !(x == 0 && !n);
            CM_G: return x > 0 && !n;
            CM_GE: return x >= 0 && !n;
            CM_L: return x < 0 && !n;
            CM_LE: return x <= 0 && !n;
            default: return 1'b0;
        endcase
    endfunction

    // an integer result outside D (dty 1) / UD (2)
    function automatic logic int_of(input logic signed [35:0] v, input logic [1:0] dty);
        if (dty == 2'd1) return v < -36'sh80000000 || v > 36'sh7fffffff;
        return v < 0 || v > 36'shffffffff;
    endfunction

    function automatic logic cond_i(input logic [3:0] cm, input logic signed [35:0] x);
        case (cm)
            CM_Z: return x == 0;
            CM_NZ: return x != 0;
            CM_G: return x > 0;
            CM_GE: return x >= 0;
            CM_L: return x < 0;
            CM_LE: return x <= 0;
            default: return 1'b0;
        endcase
    endfunction

    // round increment from guard/sticky/lsb/sign by mode
    function automatic logic round_inc(input logic [1:0] rm, input logic sign, input logic lsb,
                                       input logic g, input logic st);
        case (rm)
            2'd0: return g && (st || lsb);
`ifdef BROKEN
            2'd1: return g && !sign;
`else
            2'd1: return (g || st) && !sign;
`endif
            2'd2: return (g || st) && sign;
            default: return 1'b0;
        endcase
    endfunction

    // ---- the fused multiply-add core (finite operands) --------------------
    // round(a * b + c); no_c: no addend (MUL). Infinities and NaNs never get here.
    function automatic logic [31:0] fma_core(input logic [31:0] a, input logic [31:0] b,
                                             input logic [31:0] c, input logic no_c,
                                             input logic [1:0] rm);
        logic [23:0] ma, mb, mc;
        int ea, eb, ec, ep, hi, lo, sh, lead, lsbw, s, e_lead;
        logic [47:0] p;
        logic sp, sc, sign, stk, g, st, inc, zc;
        logic [80:0] xp, xc, sum;
        logic [127:0] ext;
        logic [24:0] kept;
        logic [39:0] pack;
        ma = {a[30:23] != 0, a[22:0]};
        mb = {b[30:23] != 0, b[22:0]};
        mc = {c[30:23] != 0, c[22:0]};
        ea = (a[30:23] == 0 ? 1 : int'(a[30:23])) - 150;
        eb = (b[30:23] == 0 ? 1 : int'(b[30:23])) - 150;
        ec = (c[30:23] == 0 ? 1 : int'(c[30:23])) - 150;
        p = ma * mb;
        ep = ea + eb;
        sp = a[31] ^ b[31];
        sc = c[31];
        zc = no_c || mc == 0;
        if (p == 0 && zc) begin
            // exact zero: the sum of two zeros (or a lone product zero)
            if (no_c || sp == sc) return {sp, 31'b0};
            return {rm == 2'd2, 31'b0};
        end
        if (p == 0) hi = ec + 23;
        else if (zc) hi = ep + 47;
        else hi = (ep + 47 > ec + 23) ? ep + 47 : ec + 23;
        lo = hi - 79;
        // align the product
        xp = '0;
        if (p != 0) begin
            sh = ep - lo;
            if (sh >= 0) xp = {33'b0, p} << sh;
            else if (-sh >= 48) xp = {80'b0, 1'b1};
            else begin
                xp = {33'b0, p >> (-sh)};
                stk = (p & ((48'h1 << (-sh)) - 48'h1)) != 0;
                xp[0] = xp[0] | stk;
            end
        end
        xc = '0;
        if (!zc) begin
            sh = ec - lo;
            if (sh >= 0) xc = {57'b0, mc} << sh;
            else if (-sh >= 24) xc = {80'b0, 1'b1};
            else begin
                xc = {57'b0, mc >> (-sh)};
                stk = (mc & ((24'h1 << (-sh)) - 24'h1)) != 0;
                xc[0] = xc[0] | stk;
            end
        end
        if (zc || sp == sc) begin
            sum = xp + xc;
            sign = sp;
        end else if (xp >= xc) begin
            sum = xp - xc;
            sign = sp;
        end else begin
            sum = xc - xp;
            sign = sc;
        end
        if (sum == 0) return {rm == 2'd2, 31'b0};       // exact cancellation
        lead = 0;
        for (int i = 0; i < 81; i++)
            if (sum[i]) lead = i;
        e_lead = lo + lead;
        lsbw = (e_lead - 23 > -149) ? e_lead - 23 : -149;
        s = lsbw - lo;
        ext = {47'b0, sum};
        if (s <= 0) begin
            kept = 25'(ext << (-s));
            g = 1'b0;
            st = 1'b0;
        end else if (s > 100) begin
            kept = '0;
            g = 1'b0;
            st = 1'b1;
        end else begin
            kept = 25'(ext >> s);
            g = ext[s - 1];
            st = (ext & ((128'h1 << (s - 1)) - 128'h1)) != 0;
        end
        inc = round_inc(rm, sign, kept[0], g, st);
        kept = kept + {24'b0, inc};
        pack = ({8'b0, 32'(lsbw + 149)} << 23) + {15'b0, kept};
        if (pack >= 40'h7f800000) begin
            // overflow (L21611-21614)
            case (rm)
                2'd0: return {sign, 31'h7f800000};
                2'd1: return sign ? 32'hff7fffff : 32'h7f800000;
                2'd2: return sign ? 32'hff800000 : 32'h7f7fffff;
                default: return {sign, 31'h7f7fffff};
            endcase
        end
        return {sign, pack[30:0]};
    endfunction

    // ---- conversions ------------------------------------------------------
    // F -> D (dty 1) or UD (2): NaN 0, RTZ or by mode, saturating; bit 32: out
    // of range (.o), a NaN is not
    function automatic logic [32:0] f_to_int(input logic [31:0] u, input logic [1:0] dty,
                                             input logic use_rm, input logic [1:0] rm);
        logic [23:0] m;
        int e, rs;
        logic [39:0] mag;
        logic g, st, big, inc;
        logic signed [41:0] v;
        if (is_nan(u)) return 33'h0;
        m = {u[30:23] != 0, u[22:0]};
        e = (u[30:23] == 0 ? 1 : int'(u[30:23])) - 150;
        big = 1'b0;
        g = 1'b0;
        st = 1'b0;
        mag = '0;
        if (u[30:23] == 8'hff || e > 8) big = 1'b1;
        else if (e >= 0) mag = {16'b0, m} << e;
        else begin
            rs = -e;
            if (rs > 24) st = m != 0;        // below 0.5: guard 0
            else begin
                mag = {16'b0, m >> rs};
                g = m[rs - 1];
                st = (m & ((24'h1 << (rs - 1)) - 24'h1)) != 0;
            end
        end
        inc = use_rm ? round_inc(rm, u[31], mag[0], g, st) : 1'b0;
        mag = mag + {39'b0, inc};
        if (big) mag = 40'h100000000;
        v = u[31] ? -$signed({2'b0, mag}) : $signed({2'b0, mag});
        if (dty == 2'd1) begin
            if (v < -42'sh80000000) return {1'b1, 32'h80000000};
            if (v > 42'sh7fffffff) return {1'b1, 32'h7fffffff};
        end else begin
            if (v < 0) return {1'b1, 32'h0};
            if (v > 42'shffffffff) return {1'b1, 32'hffffffff};
        end
        return {1'b0, v[31:0]};
    endfunction

    // int (|v| < 2^33) -> F, rounded by cr0.0[5:4] (L21694-21700)
    function automatic logic [31:0] int_to_f(input logic signed [35:0] v, input logic [1:0] rm);
        logic [34:0] mag;
        int lead, s;
        logic [34:0] kept;
        logic g, st;
        /* verilator lint_off UNUSEDSIGNAL */
        logic [39:0] pack;      // bits 39:31 are 0: |v| < 2^33
        /* verilator lint_on UNUSEDSIGNAL */
        if (v == 0) return 32'h0;
        mag = v < 0 ? 35'(-v) : 35'(v);
        lead = 0;
        for (int i = 0; i < 35; i++)
            if (mag[i]) lead = i;
        s = lead - 23;
        if (s <= 0) begin
            kept = mag << (-s);
            g = 1'b0;
            st = 1'b0;
        end else begin
            kept = mag >> s;
            g = mag[s - 1];
            st = (mag & ((35'h1 << (s - 1)) - 35'h1)) != 0;
        end
        if (round_inc(rm, v < 0, kept[0], g, st)) kept = kept + 35'h1;
        pack = ({8'b0, 32'(lead + 126)} << 23) + {5'b0, kept};
        return {v < 0, pack[30:0]};
    endfunction

    // ---- one lane -----------------------------------------------------------
    // (cr0.0 arrives whole: bits 12, 7 and 5:4 are read, the rest are the EU's)
    /* verilator lint_off UNUSEDSIGNAL */
    function automatic logic [32:0] lane(input logic [2:0] op, input logic [3:0] cm,
                                         input logic [11:0] ctrl, input logic [31:0] mode,
                                         input logic [31:0] r0, input logic [31:0] r1,
                                         input logic [31:0] r2);
        logic ftz, sat, flag;
        logic [1:0] rm, sty, dty;
        logic [31:0] a, b, c, res, one;
        logic signed [35:0] v;
        logic pinf, pinv, psign, ieee, sa, sb;
        logic [32:0] cv;
        ftz = !mode[7];
        rm = mode[5:4];
        sat = ctrl[0];
        sty = ctrl[9:8];
        dty = ctrl[11:10];
        flag = 1'b0;
        res = '0;
        one = 32'h3f800000;
        if (op == 3'd5 && sty != 2'd0) begin
            // integer source
            v = sty == 2'd1 ? 36'(signed'(r0)) : {4'b0, r0};
            if (ctrl[2] && v < 0) v = -v;
            if (ctrl[1]) v = -v;
            if (dty == 2'd0) begin
                res = int_to_f(v, rm);
                if (sat) res = v < 0 ? 32'h0 : (v > 0 ? 32'h3f800000 : res);
                flag = cond_i(cm, v);
            end else begin
                if (cm == CM_O) flag = int_of(v, dty);
                else if (dty == 2'd1) flag = cond_i(cm, 36'(signed'(v[31:0])));
                else flag = cond_i(cm, {4'b0, v[31:0]});
                if (dty == 2'd1) begin
                    res = v[31:0];
                    if (sat && v < -36'sh80000000) res = 32'h80000000;
                    if (sat && v > 36'sh7fffffff) res = 32'h7fffffff;
                end else begin
                    res = v[31:0];
                    if (sat && v < 0) res = 32'h0;
                    if (sat && v > 36'shffffffff) res = 32'hffffffff;
                end
            end
            return {flag, res};
        end
        // a mov F->F never flushes its source or result: raw, or with .sat or
        // a source modifier still keeping the denormal (004 L22970-22974)
        a = flush(r0, ftz && !(op == OP_MOV && dty == 2'd0));
        b = flush(r1, ftz);
        c = flush(r2, ftz);
        if (ctrl[2]) a[31] = 1'b0;
        if (ctrl[1]) a[31] = !a[31];
        if (ctrl[4]) b[31] = 1'b0;
        if (ctrl[3]) b[31] = !b[31];
        if (ctrl[6]) c[31] = 1'b0;
        if (ctrl[5]) c[31] = !c[31];
        case (op)
            OP_ADD, OP_MUL, OP_MAD: begin
                // as product (x * y) + addend (z)
                logic [31:0] x, y, z;
                if (op == OP_ADD) begin x = a; y = one; z = b; end
                else if (op == OP_MUL) begin x = a; y = b; z = 32'h0; end
                else begin x = b; y = c; z = a; end
                pinv = (is_inf(x) && is_zero(y)) || (is_zero(x) && is_inf(y));
                pinf = is_inf(x) || is_inf(y);
                psign = x[31] ^ y[31];
                if (op == OP_MAD && is_nan(b)) res = quiet(b);
                else if (op == OP_MAD && is_nan(c)) res = quiet(c);
                else if (is_nan(a)) res = quiet(a);
                else if (op != OP_MAD && is_nan(b)) res = quiet(b);
                else if (pinv) res = QNAN_INDEF;
                else if (pinf && op != OP_MUL && is_inf(z) && z[31] != psign) res = QNAN_INDEF;
                else if (pinf) res = {psign, 31'h7f800000};
                else if (op != OP_MUL && is_inf(z)) res = z;
                else res = fma_core(x, y, z, op == OP_MUL, rm);
                // flags on the result as written, before .sat (L20866-20873)
                if (cm == CM_O)
                    flag = is_inf(res) && !is_inf(a) && !is_inf(b) && !(op == OP_MAD && is_inf(c));
                else
                    flag = cond_f(cm, flush(res, ftz));
                if (sat) begin
                    if (is_nan(res) || (res[31] && !is_zero(res))) res = 32'h0;
                    else if (!res[31] && res[30:0] > 31'h3f800000) res = 32'h3f800000;
                end
                res = flush(res, ftz);
            end
            OP_SEL: begin
                ieee = mode[11];
                sa = is_nan(a) && !a[22];
                sb = is_nan(b) && !b[22];
                if (cm == CM_L || cm == CM_GE) begin
                    if (is_nan(a) && is_nan(b)) res = quiet((ieee && sb && !sa) ? b : a);
                    else if (ieee && sa) res = quiet(a);
                    else if (ieee && sb) res = quiet(b);
                    else if (is_nan(a)) res = b;
                    else if (is_nan(b)) res = a;
                    else if (is_zero(a) && is_zero(b))
                        res = (cm == CM_L) ? (a[31] ? a : b) : (a[31] ? b : a);
                    else if (cm == CM_L) res = f_lt(a, b) ? a : b;
                    else res = f_lt(b, a) ? a : b;
                end else if (cm != 0) res = rel(cm, a, b) ? a : b;
                else res = a;
                if (is_nan(res)) res = quiet(res);     // sel quietens (L21820)
                if (sat) begin
                    if (is_nan(res) || (res[31] && !is_zero(res))) res = 32'h0;
                    else if (!res[31] && res[30:0] > 31'h3f800000) res = 32'h3f800000;
                end
                res = flush(res, ftz);
            end
            OP_CMP: begin
                flag = rel(cm, a, b);
                res = flag ? 32'hffffffff : 32'h0;
            end
            default: begin
                // MOV from F
                if (dty == 2'd0) begin
                    // a raw move keeps an sNaN; modifiers or .sat quieten it (L21565)
                    if (is_nan(a) && (ctrl[2:0] != 0)) a = quiet(a);
                    flag = cm == CM_O ? 1'b0 : cond_f(cm, a);
                    res = a;
                    if (sat) begin
                        if (is_nan(res) || (res[31] && !is_zero(res))) res = 32'h0;
                        else if (!res[31] && res[30:0] > 31'h3f800000) res = 32'h3f800000;
                    end
                end else begin
                    cv = f_to_int(a, dty, mode[12], rm);
                    res = cv[31:0];
                    flag = cond_conv(cm, dty == 2'd1 ? 36'(signed'(res)) : {4'b0, res}, is_nan(a),
                                     cv[32]);
                end
            end
        endcase
        return {flag, res};
    endfunction

    /* verilator lint_on UNUSEDSIGNAL */


    // ---- DF: two 64-bit lanes ----------------------------------------------
    /* verilator lint_off UNUSEDSIGNAL */
    function automatic logic d_nan(input logic [63:0] u);
        return u[62:52] == 11'h7ff && u[51:0] != 0;
    endfunction
    function automatic logic d_inf(input logic [63:0] u);
        return u[62:52] == 11'h7ff && u[51:0] == 0;
    endfunction
    function automatic logic d_zero(input logic [63:0] u);
        return u[62:0] == 0;
    endfunction
    function automatic logic d_sub(input logic [63:0] u);
        return u[62:52] == 0 && u[51:0] != 0;
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */
    function automatic logic [63:0] d_flush(input logic [63:0] u, input logic ftz);
        return (ftz && d_sub(u)) ? {u[63], 63'b0} : u;
    endfunction
    function automatic logic d_lt(input logic [63:0] a, input logic [63:0] b);
        if (d_zero(a) && d_zero(b)) return 1'b0;
        if (a[63] != b[63]) return a[63];
        if (!a[63]) return a[62:0] < b[62:0];
        return a[62:0] > b[62:0];
    endfunction
    function automatic logic rel_d(input logic [3:0] cm, input logic [63:0] a,
                                   input logic [63:0] b);
        logic n, eq, lt, gt;
        n = d_nan(a) || d_nan(b);
        eq = !n && ((d_zero(a) && d_zero(b)) || a == b);
        lt = !n && d_lt(a, b);
        gt = !n && d_lt(b, a);
        case (cm)
            CM_Z: return eq;
            CM_NZ: return !eq;
            CM_G: return gt;
            CM_GE: return gt || eq;
            CM_L: return lt;
            CM_LE: return lt || eq;
            CM_U: return n;
            default: return 1'b0;
        endcase
    endfunction
    function automatic logic cond_d(input logic [3:0] cm, input logic [63:0] u);
        logic n, z, s;
        n = d_nan(u);
        z = d_zero(u);
        s = u[63] && !z;
        case (cm)
            CM_Z: return z && !n;
            CM_NZ: return !(z && !n);
            CM_G: return !s && !z && !n;
            CM_GE: return (!s || z) && !n;
            CM_L: return s && !z && !n;
            CM_LE: return (s || z) && !n;
            CM_U: return n;
            default: return 1'b0;
        endcase
    endfunction
    function automatic logic [63:0] d_sat(input logic [63:0] u);
        if (d_nan(u) || (u[63] && !d_zero(u))) return 64'h0;
        if (!u[63] && u[62:0] > 63'h3ff0000000000000) return 64'h3ff0000000000000;
        return u;
    endfunction

    // round(a * b + c) in double: as fma_core with a 168-bit window (product
    // 106 bits, addend 53)
    function automatic logic [63:0] fma_core_d(input logic [63:0] a, input logic [63:0] b,
                                               input logic [63:0] c, input logic no_c,
                                               input logic [1:0] rm);
        logic [52:0] ma, mb, mc;
        int ea, eb, ec, ep, hi, lo, sh, lead, lsbw, s, e_lead;
        logic [105:0] p;
        logic sp, sc, sign, stk, g, st, inc, zc;
        logic [168:0] xp, xc, sum;
        logic [255:0] ext;
        logic [53:0] kept;
        logic [71:0] pack;
        ma = {a[62:52] != 0, a[51:0]};
        mb = {b[62:52] != 0, b[51:0]};
        mc = {c[62:52] != 0, c[51:0]};
        ea = (a[62:52] == 0 ? 1 : int'(a[62:52])) - 1075;
        eb = (b[62:52] == 0 ? 1 : int'(b[62:52])) - 1075;
        ec = (c[62:52] == 0 ? 1 : int'(c[62:52])) - 1075;
        p = {53'b0, ma} * {53'b0, mb};
        ep = ea + eb;
        sp = a[63] ^ b[63];
        sc = c[63];
        zc = no_c || mc == 0;
        if (p == 0 && zc) begin
            if (no_c || sp == sc) return {sp, 63'b0};
            return {rm == 2'd2, 63'b0};
        end
        if (p == 0) hi = ec + 52;
        else if (zc) hi = ep + 105;
        else hi = (ep + 105 > ec + 52) ? ep + 105 : ec + 52;
        lo = hi - 167;
        xp = '0;
        if (p != 0) begin
            sh = ep - lo;
            if (sh >= 0) xp = {63'b0, p} << sh;
            else if (-sh >= 106) xp = {168'b0, 1'b1};
            else begin
                xp = {63'b0, p >> (-sh)};
                stk = (p & ((106'h1 << (-sh)) - 106'h1)) != 0;
                xp[0] = xp[0] | stk;
            end
        end
        xc = '0;
        if (!zc) begin
            sh = ec - lo;
            if (sh >= 0) xc = {116'b0, mc} << sh;
            else if (-sh >= 53) xc = {168'b0, 1'b1};
            else begin
                xc = {116'b0, mc >> (-sh)};
                stk = (mc & ((53'h1 << (-sh)) - 53'h1)) != 0;
                xc[0] = xc[0] | stk;
            end
        end
        if (zc || sp == sc) begin
            sum = xp + xc;
            sign = sp;
        end else if (xp >= xc) begin
            sum = xp - xc;
            sign = sp;
        end else begin
            sum = xc - xp;
            sign = sc;
        end
        if (sum == 0) return {rm == 2'd2, 63'b0};
        lead = 0;
        for (int i = 0; i < 169; i++)
            if (sum[i]) lead = i;
        e_lead = lo + lead;
        lsbw = (e_lead - 52 > -1074) ? e_lead - 52 : -1074;
        s = lsbw - lo;
        ext = {87'b0, sum};
        if (s <= 0) begin
            kept = 54'(ext << (-s));
            g = 1'b0;
            st = 1'b0;
        end else if (s > 200) begin
            kept = '0;
            g = 1'b0;
            st = 1'b1;
        end else begin
            kept = 54'(ext >> s);
            g = ext[s - 1];
            st = (ext & ((256'h1 << (s - 1)) - 256'h1)) != 0;
        end
        inc = round_inc(rm, sign, kept[0], g, st);
        kept = kept + {53'b0, inc};
        pack = ({40'b0, 32'(lsbw + 1074)} << 52) + {18'b0, kept};
        if (pack >= 72'h7ff0000000000000) begin
            case (rm)
                2'd0: return {sign, 63'h7ff0000000000000};
                2'd1: return sign ? 64'hffefffffffffffff : 64'h7ff0000000000000;
                2'd2: return sign ? 64'hfff0000000000000 : 64'h7fefffffffffffff;
                default: return {sign, 63'h7fefffffffffffff};
            endcase
        end
        return {sign, pack[62:0]};
    endfunction

    // DF -> D (dty 1) / UD (2): NaN 0, RTZ or by mode, saturating; bit 32 as f_to_int
    function automatic logic [32:0] d_to_int(input logic [63:0] u, input logic [1:0] dty,
                                             input logic use_rm, input logic [1:0] rm);
        logic [52:0] m;
        int e, rs;
        logic [33:0] mag;
        logic g, st, big, inc;
        logic signed [35:0] v;
        if (d_nan(u)) return 33'h0;
        m = {u[62:52] != 0, u[51:0]};
        e = (u[62:52] == 0 ? 1 : int'(u[62:52])) - 1075;
        big = u[62:52] == 11'h7ff || e >= -20;
        g = 1'b0;
        st = 1'b0;
        mag = '0;
        if (!big) begin
            rs = -e;
            if (rs > 53) st = m != 0;
            else begin
                mag = 34'(m >> rs);
                g = m[rs - 1];
                st = (m & ((53'h1 << (rs - 1)) - 53'h1)) != 0;
            end
        end
        inc = use_rm ? round_inc(rm, u[63], mag[0], g, st) : 1'b0;
        mag = mag + {33'b0, inc};
        if (big) mag = 34'h100000000;
        v = u[63] ? -$signed({2'b0, mag}) : $signed({2'b0, mag});
        if (dty == 2'd1) begin
            if (v < -36'sh80000000) return {1'b1, 32'h80000000};
            if (v > 36'sh7fffffff) return {1'b1, 32'h7fffffff};
        end else begin
            if (v < 0) return {1'b1, 32'h0};
            if (v > 36'shffffffff) return {1'b1, 32'hffffffff};
        end
        return {1'b0, v[31:0]};
    endfunction

    // int (|v| < 2^34) -> DF, exact
    function automatic logic [63:0] int_to_d(input logic signed [35:0] v);
        logic [35:0] mag;
        int lead;
        logic [51:0] frac;
        if (v == 0) return 64'h0;
        mag = v < 0 ? 36'(-v) : 36'(v);
        lead = 0;
        for (int i = 0; i < 36; i++)
            if (mag[i]) lead = i;
        frac = 52'({16'b0, mag} << (52 - lead));
        return {v < 0, 11'(lead + 1023), frac};
    endfunction

    // F -> DF, exact; NaNs quietened
    function automatic logic [63:0] f_to_d(input logic [31:0] u);
        int lead;
        logic [51:0] frac;
        if (is_nan(u)) return {u[31], 11'h7ff, 1'b1, u[21:0], 29'b0};
        if (is_inf(u)) return {u[31], 11'h7ff, 52'b0};
        if (is_zero(u)) return {u[31], 63'b0};
        if (u[30:23] != 0) return {u[31], 11'(int'(u[30:23]) + 896), u[22:0], 29'b0};
        lead = 0;
        for (int i = 0; i < 23; i++)
            if (u[i]) lead = i;
        frac = 52'({29'b0, u[22:0]} << (52 - lead));
        return {u[31], 11'(lead - 149 + 1023), frac};
    endfunction

    // DF -> F, rounded by mode; NaNs quietened keeping the top payload
    function automatic logic [31:0] d_to_f(input logic [63:0] u, input logic [1:0] rm);
        logic [52:0] m;
        int e, lead, e_lead, lsbw, s;
        logic [24:0] kept;
        logic g, st, inc;
        logic [39:0] pack;
        if (d_nan(u)) return {u[63], 9'h1ff, u[50:29]};
        if (d_inf(u)) return {u[63], 31'h7f800000};
        if (d_zero(u)) return {u[63], 31'b0};
        m = {u[62:52] != 0, u[51:0]};
        e = (u[62:52] == 0 ? 1 : int'(u[62:52])) - 1075;
        lead = 0;
        for (int i = 0; i < 53; i++)
            if (m[i]) lead = i;
        e_lead = e + lead;
        lsbw = (e_lead - 23 > -149) ? e_lead - 23 : -149;
        s = lsbw - e;
        if (s <= 0) begin
            kept = 25'(m << (-s));
            g = 1'b0;
            st = 1'b0;
        end else if (s > 54) begin
            kept = '0;
            g = 1'b0;
            st = 1'b1;
        end else begin
            kept = 25'(m >> s);
            g = m[s - 1];
            st = (m & ((53'h1 << (s - 1)) - 53'h1)) != 0;
        end
        inc = round_inc(rm, u[63], kept[0], g, st);
        kept = kept + {24'b0, inc};
        if (lsbw + 149 > 300) return (rm == 2'd0 || (rm == 2'd1 && !u[63]) || (rm == 2'd2 && u[63]))
                                     ? {u[63], 31'h7f800000} : {u[63], 31'h7f7fffff};
        pack = ({8'b0, 32'(lsbw + 149)} << 23) + {15'b0, kept};
        if (pack >= 40'h7f800000) begin
            case (rm)
                2'd0: return {u[63], 31'h7f800000};
                2'd1: return u[63] ? 32'hff7fffff : 32'h7f800000;
                2'd2: return u[63] ? 32'hff800000 : 32'h7f7fffff;
                default: return {u[63], 31'h7f7fffff};
            endcase
        end
        return {u[63], pack[30:0]};
    endfunction

    // one DF lane: 64-bit sources a, b, c (or a 32-bit source r0 for MOV from
    // F/D/UD); {flag, result} (a 32-bit result in the low half)
    /* verilator lint_off UNUSEDSIGNAL */
    function automatic logic [64:0] lane_d(input logic [2:0] op, input logic [3:0] cm,
                                           input logic [11:0] ctrl, input logic [31:0] mode,
                                           input logic [31:0] r0, input logic [63:0] a0,
                                           input logic [63:0] b0, input logic [63:0] c0);
        logic ftz_f, ftz_d, sat, flag;
        logic [1:0] rm, sty, dty;
        logic [63:0] a, b, c, res, x, y, z;
        logic [31:0] f, g;
        logic signed [35:0] v;
        logic pinf, pinv, psign, ieee, sa, sb;
        logic [32:0] cv;
        ftz_f = !mode[7];
        ftz_d = !mode[6];
        rm = mode[5:4];
        sat = ctrl[0];
        sty = op == 3'd5 ? ctrl[9:8] : 2'd3;
        dty = op == 3'd5 ? ctrl[11:10] : 2'd3;
        flag = 1'b0;
        res = '0;
        if (sty == 2'd1 || sty == 2'd2) begin
            v = sty == 2'd1 ? 36'(signed'(r0)) : {4'b0, r0};
            if (ctrl[2] && v < 0) v = -v;
            if (ctrl[1]) v = -v;
            res = int_to_d(v);
            if (sat) res = v < 0 ? 64'h0 : (v > 0 ? 64'h3ff0000000000000 : res);
            flag = cond_i(cm, v);
            return {flag, res};
        end
        if (sty == 2'd0) begin
            f = flush(r0, ftz_f);
            if (ctrl[2]) f[31] = 1'b0;
            if (ctrl[1]) f[31] = !f[31];
            flag = cond_f(cm, f);
            res = f_to_d(f);
            if (sat) res = d_sat(res);
            return {flag, d_flush(res, ftz_d)};
        end
        a = d_flush(a0, ftz_d && !(op == OP_MOV && dty == 2'd3));   // mov DF->DF: as F->F
        b = d_flush(b0, ftz_d);
        c = d_flush(c0, ftz_d);
        if (ctrl[2]) a[63] = 1'b0;
        if (ctrl[1]) a[63] = !a[63];
        if (ctrl[4]) b[63] = 1'b0;
        if (ctrl[3]) b[63] = !b[63];
        if (ctrl[6]) c[63] = 1'b0;
        if (ctrl[5]) c[63] = !c[63];
        case (op)
            OP_ADD, OP_MUL, OP_MAD: begin
                if (op == OP_ADD) begin x = a; y = 64'h3ff0000000000000; z = b; end
                else if (op == OP_MUL) begin x = a; y = b; z = 64'h0; end
                else begin x = b; y = c; z = a; end
                pinv = (d_inf(x) && d_zero(y)) || (d_zero(x) && d_inf(y));
                pinf = d_inf(x) || d_inf(y);
                psign = x[63] ^ y[63];
                if (op == OP_MAD && d_nan(b)) res = b | 64'h0008000000000000;
                else if (op == OP_MAD && d_nan(c)) res = c | 64'h0008000000000000;
                else if (d_nan(a)) res = a | 64'h0008000000000000;
                else if (op != OP_MAD && d_nan(b)) res = b | 64'h0008000000000000;
                else if (pinv) res = 64'hfff8000000000000;
                else if (pinf && op != OP_MUL && d_inf(z) && z[63] != psign)
                    res = 64'hfff8000000000000;
                else if (pinf) res = {psign, 63'h7ff0000000000000};
                else if (op != OP_MUL && d_inf(z)) res = z;
                else res = fma_core_d(x, y, z, op == OP_MUL, rm);
                if (cm == CM_O)
                    flag = d_inf(res) && !d_inf(a) && !d_inf(b) && !(op == OP_MAD && d_inf(c));
                else
                    flag = cond_d(cm, d_flush(res, ftz_d));
                if (sat) res = d_sat(res);
                res = d_flush(res, ftz_d);
            end
            OP_SEL: begin
                ieee = mode[11];
                sa = d_nan(a) && !a[51];
                sb = d_nan(b) && !b[51];
                if (cm == CM_L || cm == CM_GE) begin
                    if (d_nan(a) && d_nan(b)) res = (ieee && sb && !sa) ? b : a;
                    else if (ieee && sa) res = a;
                    else if (ieee && sb) res = b;
                    else if (d_nan(a)) res = b;
                    else if (d_nan(b)) res = a;
                    else if (d_zero(a) && d_zero(b))
                        res = (cm == CM_L) ? (a[63] ? a : b) : (a[63] ? b : a);
                    else if (cm == CM_L) res = d_lt(a, b) ? a : b;
                    else res = d_lt(b, a) ? a : b;
                end else if (cm != 0) res = rel_d(cm, a, b) ? a : b;
                else res = a;
                if (d_nan(res)) res = res | 64'h0008000000000000;     // sel quietens (L21820)
                if (sat) res = d_sat(res);
                res = d_flush(res, ftz_d);
            end
            OP_CMP: begin
                flag = rel_d(cm, a, b);
                res = flag ? 64'hffffffffffffffff : 64'h0;
            end
            default: begin
                // MOV from DF
                if (dty == 2'd3) begin
                    if (d_nan(a) && (ctrl[2:0] != 0)) a = a | 64'h0008000000000000;
                    flag = cm == CM_O ? 1'b0 : cond_d(cm, a);
                    res = a;
                    if (sat) res = d_sat(res);
                end else if (dty == 2'd0) begin
                    g = flush(d_to_f(a, rm), ftz_f);
                    flag = cm == CM_O ? is_inf(g) && !d_inf(a) : cond_f(cm, g);
                    f = d_to_f(sat ? d_sat(a) : a, rm);
                    res = {32'b0, flush(f, ftz_f)};
                end else begin
                    cv = d_to_int(a, dty, mode[12], rm);
                    res = {32'b0, cv[31:0]};
                    flag = cond_conv(cm, dty == 2'd1 ? 36'(signed'(cv[31:0])) : {4'b0, cv[31:0]},
                                     d_nan(a), cv[32]);
                end
            end
        endcase
        return {flag, res};
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    // ---- request check and compute --------------------------------------
    logic bad, df;
    logic [31:0] c_res [4];
    logic [3:0] c_flags;
    logic [32:0] o;
    logic [64:0] od;
    always_comb begin
        o = '0;
        od = '0;
        bad = req_op > 8'd5 || req_mode[0] || req_reserved != 0 || req_pad != 0 ||
              req_ctrl[31:13] != 0 || req_mask > 8'd15 || req_cond > 8'd9;
        df = req_op == 8'd5 ? (req_ctrl[9:8] == 2'd3 || req_ctrl[11:10] == 2'd3) : req_ctrl[12];
        for (int l = 0; l < 4; l++) begin
            c_res[l] = 32'h0;
            c_flags[l] = 1'b0;
        end
        if (!bad && !df) begin
            for (int l = 0; l < 4; l++) begin
                o = lane(req_op[2:0], req_cond[3:0], req_ctrl[11:0], req_mode, req_src0[l],
                         req_src1[l], req_src2[l]);
                c_res[l] = req_mask[l] ? o[31:0] : 32'h0;
                c_flags[l] = req_mask[l] && o[32] && (req_cond != 0 || req_op == 8'd4) &&
                             req_op != 8'd3;
            end
        end else if (!bad) begin
            for (int l = 0; l < 2; l++) begin
                od = lane_d(req_op[2:0], req_cond[3:0], req_ctrl[11:0], req_mode, req_src0[l],
                           {req_src0[2 * l + 1], req_src0[2 * l]},
                           {req_src1[2 * l + 1], req_src1[2 * l]},
                           {req_src2[2 * l + 1], req_src2[2 * l]});
                if (req_mask[l]) begin
                    if (req_op != 8'd5 || req_ctrl[11:10] == 2'd3) begin
                        c_res[2 * l] = od[31:0];
                        c_res[2 * l + 1] = od[63:32];
                    end else
                        c_res[l] = od[31:0];
                    c_flags[l] = od[64] && (req_cond != 0 || req_op == 8'd4) && req_op != 8'd3;
                end
            end
        end
    end

    // ---- the pipe -----------------------------------------------------------
    logic        st_valid [MAXD];
    logic [31:0] st_tag [MAXD];
    logic [31:0] st_res [MAXD][4];
    logic [3:0]  st_flags [MAXD];
    logic        st_status [MAXD];
    logic [6:0]  last;
    logic        move;

    assign last = (cfg_depth == 0 || cfg_depth > 7'(MAXD)) ? 7'(MAXD - 1) : cfg_depth - 7'd1;
    assign resp_valid = st_valid[last[$clog2(MAXD)-1:0]];
    assign move = !resp_valid || resp_ready;
    assign req_ready = move;
    assign resp_tag = st_tag[last[$clog2(MAXD)-1:0]];
    assign resp_result = st_res[last[$clog2(MAXD)-1:0]];
    assign resp_flags = st_flags[last[$clog2(MAXD)-1:0]];
    assign resp_status = st_status[last[$clog2(MAXD)-1:0]];

    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            for (int i = 0; i < MAXD; i++) begin
                st_valid[i] <= 1'b0;
                st_tag[i] <= '0;
                st_flags[i] <= '0;
                st_status[i] <= 1'b0;
                for (int l = 0; l < 4; l++) st_res[i][l] <= '0;
            end
        end else if (move) begin
            st_valid[0] <= req_valid;
            st_tag[0] <= req_valid ? req_tag : '0;
            st_res[0] <= c_res;
            st_flags[0] <= req_valid ? c_flags : 4'b0;
            st_status[0] <= req_valid && bad;
            for (int i = 1; i < MAXD; i++) begin
                st_valid[i] <= (i <= int'(last)) ? st_valid[i - 1] : 1'b0;
                st_tag[i] <= st_tag[i - 1];
                st_res[i] <= st_res[i - 1];
                st_flags[i] <= st_flags[i - 1];
                st_status[i] <= st_status[i - 1];
            end
        end
    end
endmodule
