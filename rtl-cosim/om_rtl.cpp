// rtl-cosim/om_rtl.cpp - see om_rtl.h. The pixel datapath's only C++: its pins;
// the context, model, wave and clock are verilated_model.h's.
#include "rtl-cosim/om_rtl.h"

#include <cstring>

#include "rtl-cosim/verilated_model.h"

#include "Vom_pixel.h"
#include "Vom_pixel_broken.h"

namespace {

uint32_t bits_of(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

float float_of(uint32_t u)
{
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// Encodings past a field's width reach the RTL saturated to its first
// unknown code, which it treats as the C block treats any unknown one.
uint8_t enc8(uint32_t v) { return v > 255 ? 255 : (uint8_t)v; }
uint8_t enc4(uint32_t v) { return v > 8 ? 8 : (uint8_t)v; }
uint8_t format3(uint32_t v) { return v > 7 ? 7 : (uint8_t)v; }

class Pins : public RtlModel {
public:
    virtual void idle() = 0;
    virtual void color(const om_color_request *rq) = 0;
    virtual void bits(bool logic, uint32_t op, uint32_t s, uint32_t d, uint32_t keep) = 0;
    virtual void depth(const ds_state *st, bool back, uint32_t format, float z, uint32_t depth,
                       uint8_t stencil) = 0;
    virtual bool out_valid() const = 0;
    virtual void color_out(float out[4], bool *bad) const = 0;
    virtual uint32_t bits_out() const = 0;
    virtual uint32_t ds_out(uint32_t *depth, uint8_t *stencil) const = 0;
};

template <class V>
class Impl final : public VerilatedTop<V, Pins> {
    using VerilatedTop<V, Pins>::top;

public:
    explicit Impl(bool trace) : VerilatedTop<V, Pins>(trace) { idle(); }
    void idle() override { top().in_valid = 0; }
    void color(const om_color_request *rq) override {
        V &t = top();
        t.in_valid = 1;
        t.in_op = 0;
        t.c_blend = rq->blend;
        t.c_pre_clamp = rq->pre_clamp;
        t.c_post_clamp = rq->post_clamp;
        t.c_independent_alpha = rq->independent_alpha;
        t.c_sf = enc8(rq->source_factor);
        t.c_df = enc8(rq->destination_factor);
        t.c_fn = enc8(rq->function);
        t.c_saf = enc8(rq->source_alpha_factor);
        t.c_daf = enc8(rq->destination_alpha_factor);
        t.c_afn = enc8(rq->alpha_function);
        t.c_lo = bits_of(rq->lo);
        t.c_hi = bits_of(rq->hi);
        for (int c = 0; c < 4; c++) {
            t.c_src[c] = bits_of(rq->in.src[c]);
            t.c_src1[c] = bits_of(rq->in.src1[c]);
            t.c_dst[c] = bits_of(rq->in.dst[c]);
            t.c_const[c] = bits_of(rq->in.constant[c]);
        }
    }
    void bits(bool logic, uint32_t op, uint32_t s, uint32_t d, uint32_t keep) override {
        V &t = top();
        t.in_valid = 1;
        t.in_op = 1;
        t.b_logic = logic;
        t.b_op = op & 15;           // om_logic_op takes op & 15
        t.b_src = s;
        t.b_dst = d;
        t.b_keep = keep;
    }
    void depth(const ds_state *st, bool back, uint32_t format, float z, uint32_t depth,
               uint8_t stencil) override {
        V &t = top();
        t.in_valid = 1;
        t.in_op = 2;
        t.d_depth_test = st->depth_test;
        t.d_depth_write = st->depth_write;
        t.d_depth_function = enc4(st->depth_function);
        t.d_stencil_test = st->stencil_test;
        t.d_stencil_write = st->stencil_write;
        t.d_double_sided = st->double_sided;
        t.d_back_facing = back;
        t.d_front_function = enc4(st->front.function);
        t.d_front_fail = enc4(st->front.fail_op);
        t.d_front_depth_fail = enc4(st->front.depth_fail_op);
        t.d_front_pass = enc4(st->front.pass_op);
        t.d_front_test_mask = st->front.test_mask;
        t.d_front_write_mask = st->front.write_mask;
        t.d_front_reference = st->front.reference;
        t.d_back_function = enc4(st->back.function);
        t.d_back_fail = enc4(st->back.fail_op);
        t.d_back_depth_fail = enc4(st->back.depth_fail_op);
        t.d_back_pass = enc4(st->back.pass_op);
        t.d_back_test_mask = st->back.test_mask;
        t.d_back_write_mask = st->back.write_mask;
        t.d_back_reference = st->back.reference;
        t.d_min_depth = bits_of(st->min_depth);
        t.d_max_depth = bits_of(st->max_depth);
        t.d_format = format3(format);
        t.d_source_depth = bits_of(z);
        t.d_depth = depth;
        t.d_stencil = stencil;
    }
    bool out_valid() const override { return top().out_valid; }
    void color_out(float out[4], bool *bad) const override {
        for (int c = 0; c < 4; c++)
            out[c] = float_of(top().color_out[c]);
        *bad = top().color_bad;
    }
    uint32_t bits_out() const override { return top().bits_out; }
    uint32_t ds_out(uint32_t *depth, uint8_t *stencil) const override {
        *depth = top().ds_depth;
        *stencil = top().ds_stencil;
        return top().ds_flags;
    }
};

}  // namespace

struct om_rtl : RtlHarness<Pins> {
    bool answered = true;
    int kind = -1;              // the last request's: 0 colour, 1 bits, 2 depth
    // The request set on the pins: two clocks, then the outputs.
    void run() {
        clock(edges);
        model->idle();
        clock(edges);
        answered = model->out_valid();
    }
};

extern "C" {

struct om_rtl *om_rtl_create(bool broken, bool trace)
{
    om_rtl *r = new om_rtl;
    r->create<Impl, Vom_pixel, Vom_pixel_broken>(broken, trace);
    r->period_ps = 10;
    return r;
}

void om_rtl_destroy(struct om_rtl *r) { delete r; }

void om_rtl_reset(struct om_rtl *r)
{
    r->reset([](Pins &m) { m.idle(); });
}

int om_rtl_trace_open(struct om_rtl *r, const char *path, uint64_t from, uint64_t to)
{
    return r->trace_open(path, 10, from, to) ? 0 : -1;
}

void om_rtl_trace_window(struct om_rtl *r, uint64_t from, uint64_t to) { r->wave.window(from, to); }
void om_rtl_trace_close(struct om_rtl *r) { r->wave.close(); }
uint64_t om_rtl_clocks(const struct om_rtl *r) { return r->edges; }
bool om_rtl_answered(const struct om_rtl *r) { return r->answered; }

bool om_rtl_others_zero(const struct om_rtl *r)
{
    float color[4];
    bool bad;
    uint32_t depth;
    uint8_t stencil;
    r->model->color_out(color, &bad);
    uint32_t flags = r->model->ds_out(&depth, &stencil);
    bool color_zero = !bad && !bits_of(color[0]) && !bits_of(color[1]) && !bits_of(color[2]) &&
                      !bits_of(color[3]);
    bool bits_zero = r->model->bits_out() == 0;
    bool depth_zero = flags == 0 && depth == 0 && stencil == 0;
    return (r->kind == 0 || color_zero) && (r->kind == 1 || bits_zero) &&
           (r->kind == 2 || depth_zero);
}

unsigned om_rtl_idle_after_reset(struct om_rtl *r, unsigned clocks)
{
    return r->idle_after_reset([](Pins &m) { m.idle(); },
                               [](const Pins &m) { return m.out_valid(); }, clocks);
}

bool om_rtl_color(struct om_rtl *r, const struct om_color_request *rq, float out[4])
{
    r->model->color(rq);
    r->kind = 0;
    r->run();
    bool bad;
    r->model->color_out(out, &bad);
    return !bad;
}

uint32_t om_rtl_bits(struct om_rtl *r, bool logic, uint32_t op, uint32_t source,
                     uint32_t destination, uint32_t keep)
{
    r->model->bits(logic, op, source, destination, keep);
    r->kind = 1;
    r->run();
    return r->model->bits_out();
}

uint32_t om_rtl_depth(struct om_rtl *r, const struct ds_state *st, bool back_facing,
                      uint32_t depth_format, float source_depth, uint32_t *depth,
                      uint8_t *stencil)
{
    r->model->depth(st, back_facing, depth_format, source_depth, *depth, *stencil);
    r->kind = 2;
    r->run();
    return r->model->ds_out(depth, stencil);
}

}  // extern "C"
