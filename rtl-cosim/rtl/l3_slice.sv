// rtl-cosim/rtl/l3_slice.sv - one slice's L3 (units/l3/l3.{h,c}): BANKS banks
// with their own tags and queues, the shared miss entries, reply heap and
// memory request FIFO, in synthesizable SystemVerilog.
//
// Same behaviour as the C model, which states each rule with its seed line
// (seed 003 L18291-18573, notes/003-skl-pipeline.md §4.4-4.6): 64-byte lines,
// a line in bank (line mod cfg_banks), set ((line / cfg_banks) mod SETS)
// (2 KiB logical ways), cfg_ways cache ways laid out DC | Rest | RO
// (cfg_dc_ways, cfg_ro_ways): R/W data fills DC + Rest, read-only data
// (target RO, L3_TARGET_RO_DATA) fills Rest + RO, lookups search every way;
// Gen9 1-bit LRU over the pool's range (victim = first way whose bit is 0,
// set it; all 1: clear the range, pick its first way and set it; changed on
// fills only, L18561-18565); allocation on fill with one miss entry per line
// shared by the banks (the first free one) and merged misses behind it
// (L18549-18557); dirty lines written back when evicted; URB/SLM bypassing
// the tags (L18499; SLM with no SLM partition counted); uncached requests
// through a miss entry without a fill; atomics holding their bank for
// cfg_atomic_cycles; read-only requests counted (st_ro_reads).
//
// Time. One fabric cycle of the L3 is a frame of RTL clocks, one command per
// clock, in the order the C unit's tick works: FLUSH for an L3CNTLREG write
// the adapter decoded and applies (busy high for one clock per bank x set
// plus one per dirty line: write back the dirty lines of the current ways in
// bank, set x ways + way order, then invalidate every line and clear the LRU;
// the adapter then drives the new cfg_ways/cfg_dc_ways/cfg_ro_ways), FILL per
// memory reply (then one clock per waiter it releases, busy high), ENQ per
// request taken into its bank's queue, SERVE per bank in bank order 0 ..
// cfg_banks - 1 (cmd_bank; at fabric cycle cmd_now), then MPOP per memory
// request sent and RPOP per reply sent. Replies wait in a binary min-heap on
// their due cycle laid out exactly as the C model's (the same sift-up and
// sift-down, ties included), so under reply back-pressure the RTL sends in
// the same order as the C model, cycle for cycle. A push or pop writes only
// the entries on its path (non-blocking writes of the old values), never the
// whole heap.
//
// Not modelled (as in the C unit, units/l3/l3.h): snoops and coherency, the
// SuperQ/ingress FIFO structure, the 2x-clocked data arrays, ECC, the
// L3SQCREG flush sequence. The L3CNTLREG decode and its rule checks are the
// adapter's (units/l3 l3_partition_decode), not this module's.
//
// Capacities are parameters (the C model grows its lists): MSHRS miss
// entries of WPE waiters, QDEPTH queued requests per bank, RCAP replies
// waiting, MQ memory requests waiting. Going past one sets `overflow`
// (sticky); the adapter reports it. BANKS must be a power of two.
//
// `define BROKEN plants one bug: when every LRU bit of a pool's range is 1 the
// victim is the range's second way instead of its first, so the wrong line is
// evicted.

module l3_slice #(
    parameter int BANKS = 4,
    parameter int SETS = 32,
    parameter int WAYS = 96,
    parameter int MSHRS = 64,
    parameter int WPE = 64,
    parameter int QDEPTH = 16,
    parameter int RCAP = 512,
    parameter int MQ = 16384         // every line of the slice flushed, and more
) (
    input  logic        clk,
    input  logic        rst_n,

    input  logic [7:0]  cfg_banks,          // 1..BANKS
    input  logic [7:0]  cfg_ways,           // cache ways, 1..WAYS
    input  logic [7:0]  cfg_dc_ways,        // of cfg_ways: DC first ...
    input  logic [7:0]  cfg_ro_ways,        // ... RO last
    input  logic        cfg_slm_on,         // the partition has SLM
    input  logic [7:0]  cfg_misses,         // miss entries in use, 1..MSHRS
    input  logic [15:0] cfg_hit_latency,
    input  logic [15:0] cfg_fill_latency,
    input  logic [15:0] cfg_urb_latency,
    input  logic [15:0] cfg_atomic_cycles,

    input  logic [2:0]  cmd,                // CMD_* below; ignored while busy
    input  logic [7:0]  cmd_bank,           // SERVE: the bank, 0..cfg_banks - 1
    input  logic [63:0] cmd_now,            // the fabric cycle
    input  logic [63:0] cmd_addr,           // ENQ: request address; FILL: reply address
    input  logic [31:0] cmd_tag,            // ENQ: memreq tag; FILL: memreply tag
    input  logic [31:0] cmd_mtag,           // ENQ: the message header's tag
    input  logic [1:0]  cmd_op,             // ENQ: enum memreq_op (2: any atomic)
    input  logic [2:0]  cmd_target,         // ENQ: enum memreq_target, 4: RO data
    input  logic [5:0]  cmd_port,           // ENQ: client port index

    output logic        busy,               // releasing a fill's waiters, or flushing
    output logic [8*BANKS-1:0] queue_counts, // per bank, 8 bits each

    output logic        mem_valid,          // head of the memory request FIFO
    output logic [57:0] mem_line,
    output logic [1:0]  mem_op,
    output logic        mem_writeback,      // tag UINT32_MAX
    output logic [15:0] mem_count,          // memory requests waiting

    output logic        reply_valid,        // heap top (any due)
    output logic [63:0] reply_due,
    output logic [63:0] reply_addr,
    output logic [31:0] reply_tag,
    output logic [31:0] reply_mtag,
    output logic [1:0]  reply_op,
    output logic        reply_hit,
    output logic [5:0]  reply_port,
    output logic [15:0] reply_count,

    output logic        overflow,
    output logic [63:0] st_reads, st_writes, st_atomics, st_hits, st_misses,
    output logic [63:0] st_merged, st_evictions, st_writebacks, st_urb, st_uncached,
    output logic [63:0] st_mshr_stalls, st_queue_cycles, st_ro_reads, st_slm_unallocated
);
    localparam int BB = BANKS > 1 ? $clog2(BANKS) : 1;
    logic [BB-1:0] sb;          // the served bank
    assign sb = cmd_bank[BB-1:0];
    /* verilator lint_off UNUSEDSIGNAL */
    logic [7:0] unused_bank_bits;
    assign unused_bank_bits = cmd_bank;
    /* verilator lint_on UNUSEDSIGNAL */
    localparam logic [2:0] CMD_NOP = 3'd0, CMD_FILL = 3'd1, CMD_ENQ = 3'd2, CMD_SERVE = 3'd3,
                           CMD_MPOP = 3'd4, CMD_RPOP = 3'd5, CMD_FLUSH = 3'd6;
    localparam logic [1:0] OP_READ = 2'd0, OP_WRITE = 2'd1;
    localparam logic [2:0] T_URB = 3'd1, T_SLM = 3'd2, T_UNCACHED = 3'd3, T_RO = 3'd4;
    localparam int SB = $clog2(SETS), MB = $clog2(MSHRS), WB = $clog2(WPE + 1);
    localparam int QB = $clog2(QDEPTH), RB = $clog2(RCAP + 1), MQB = $clog2(MQ);
    localparam int RLEVELS = $clog2(RCAP) + 1;
    localparam int YB = $clog2(WAYS), WIB = $clog2(WPE);

    typedef struct packed {
        logic [63:0] addr;
        logic [31:0] tag;
        logic [31:0] mtag;
        logic [1:0]  op;
        logic [2:0]  target;
        logic [5:0]  port;
    } req_t;

    typedef struct packed {
        logic [63:0] due;
        logic [63:0] addr;
        logic [31:0] tag;
        logic [31:0] mtag;
        logic [1:0]  op;
        logic        hit;
        logic [5:0]  port;
    } rep_t;

    typedef struct packed {
        logic [57:0] line;
        logic [1:0]  op;
        logic        wb;
    } mreq_t;

    // ---- state ------------------------------------------------------------
    logic [57:0]     tags  [BANKS][SETS][WAYS];
    logic [WAYS-1:0] valid [BANKS][SETS];
    logic [WAYS-1:0] dirty [BANKS][SETS];
    logic [WAYS-1:0] lru   [BANKS][SETS];

    req_t        q     [BANKS][QDEPTH];
    logic [QB-1:0] q_head [BANKS];
    logic [7:0]  q_count [BANKS];
    logic [63:0] busy_until [BANKS];

    logic        m_used  [MSHRS];
    logic [57:0] m_line  [MSHRS];
    logic [WB-1:0] m_count [MSHRS];
    req_t        m_wait  [MSHRS][WPE];

    rep_t        heap  [RCAP];
    logic [RB-1:0] h_count;

    mreq_t       mq    [MQ];
    logic [MQB-1:0] mq_head;
    logic [MQB:0] mq_count;

    logic          releasing;
    logic [MB-1:0] rel_entry;
    logic [WB-1:0] rel_index;
    logic [63:0]   rel_due;

    logic          flushing;
    logic [BB-1:0] fl_bank;
    logic [SB-1:0] fl_set;
    logic [7:0]    fl_way;      // next way of the set to look at

    // ---- combinational helpers --------------------------------------------
    req_t        head;
    logic [57:0] head_line;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [57:0] head_quot, fill_quot, line_rem;    // low bits used
    /* verilator lint_on UNUSEDSIGNAL */
    logic [SB-1:0] head_set;
    logic [57:0] fill_line;
    logic [BB-1:0] fill_bank, enq_bank;
    logic [SB-1:0] fill_set;

    assign head      = q[sb][q_head[sb]];
    assign head_line = head.addr[63:6];
    assign head_quot = head_line / 58'(cfg_banks);
    assign head_set  = head_quot[SB-1:0];
    assign fill_line = cmd_addr[63:6];
    assign fill_quot = fill_line / 58'(cfg_banks);
    assign fill_set  = fill_quot[SB-1:0];
    assign line_rem  = fill_line % 58'(cfg_banks);
    assign fill_bank = line_rem[BB-1:0];
    assign enq_bank  = line_rem[BB-1:0];    // ENQ and FILL both name their line with cmd_addr

    // The ways in use (below cfg_ways). The lookups below are only worked out
    // for the command that needs them (a simulation speed choice: the logic is
    // the same, its result is unused on other clocks).
    logic [WAYS-1:0] ways_mask;
    assign ways_mask = ~({WAYS{1'b1}} << cfg_ways);

    // Tag lookup of the served bank's queue head (SERVE).
    logic          hit_found;
    logic [YB-1:0] hit_way;
    always_comb begin
        logic [WAYS-1:0] v;
        hit_found = 1'b0;
        hit_way = '0;
        v = cmd == CMD_SERVE ? valid[sb][head_set] & ways_mask : '0;
        if (v != '0)
            for (int w = WAYS - 1; w >= 0; w--)
                if (v[w] && tags[sb][head_set][w] == head_line) begin
                    hit_found = 1'b1;
                    hit_way = YB'(w);
                end
    end

    // Miss entry of a line (first match: serve_match, fill_match), and the
    // first free entry (serve_free); MSB set: none.
    logic [MB:0] serve_match, serve_free, fill_match;
    always_comb begin
        logic [57:0] line;
        logic [MB:0] match;
        line = cmd == CMD_SERVE ? head_line : fill_line;
        match = {1'b1, {MB{1'b0}}};
        serve_free = {1'b1, {MB{1'b0}}};
        if (cmd == CMD_SERVE || cmd == CMD_FILL)
            for (int i = MSHRS - 1; i >= 0; i--)
                if (i < int'(cfg_misses)) begin
                    if (m_used[i] && m_line[i] == line)
                        match = {1'b0, MB'(i)};
                    if (!m_used[i])
                        serve_free = {1'b0, MB'(i)};
                end
        serve_match = match;
        fill_match = match;
    end

    // Of the waiters of the entry a fill releases: any cached, any writing,
    // all read-only.
    logic fill_cached, fill_dirty, fill_ro;
    always_comb begin
        fill_cached = 1'b0;
        fill_dirty = 1'b0;
        fill_ro = 1'b1;
        if (cmd == CMD_FILL && !fill_match[MB])
            for (int k = 0; k < WPE; k++)
                if (WB'(k) < m_count[fill_match[MB-1:0]] &&
                    m_wait[fill_match[MB-1:0]][k].target != T_UNCACHED) begin
                    fill_cached = 1'b1;
                    if (m_wait[fill_match[MB-1:0]][k].op != OP_READ)
                        fill_dirty = 1'b1;
                    if (m_wait[fill_match[MB-1:0]][k].target != T_RO)
                        fill_ro = 1'b0;
                end
    end

    // FILL: the line's way (present, any way) or the LRU victim in its pool:
    // R/W data [0, ways - ro), read-only [dc, ways); an empty pool: every way.
    logic          fill_present;
    logic [YB-1:0] fill_way_present;
    logic [YB-1:0] victim_way;
    logic          all_set;
    logic [7:0]    pool_lo, pool_hi;
    logic [WAYS-1:0] fill_lru;
    always_comb begin
        logic [WAYS-1:0] v, pool, free;
        pool_lo = fill_ro ? cfg_dc_ways : 8'd0;
        pool_hi = fill_ro ? cfg_ways : cfg_ways - cfg_ro_ways;
        if (pool_lo >= pool_hi) begin
            pool_lo = 8'd0;
            pool_hi = cfg_ways;
        end
        pool = ~({WAYS{1'b1}} << pool_hi) & ({WAYS{1'b1}} << pool_lo);
        fill_present = 1'b0;
        fill_way_present = '0;
        v = cmd == CMD_FILL ? valid[fill_bank][fill_set] & ways_mask : '0;
        if (v != '0)
            for (int w = WAYS - 1; w >= 0; w--)
                if (v[w] && tags[fill_bank][fill_set][w] == fill_line) begin
                    fill_present = 1'b1;
                    fill_way_present = YB'(w);
                end
        free = cmd == CMD_FILL ? ~lru[fill_bank][fill_set] & pool : '0;
        all_set = free == '0;
        victim_way = YB'(pool_lo);
        if (!all_set)
            for (int w = WAYS - 1; w >= 0; w--)
                if (free[w])
                    victim_way = YB'(w);
`ifdef BROKEN
        if (all_set && pool_hi - pool_lo > 8'd1)
            victim_way = YB'(pool_lo + 8'd1);
`endif
        // the set's bits after allocating victim_way (all set: the range cleared first)
        fill_lru = (all_set ? lru[fill_bank][fill_set] & ~pool : lru[fill_bank][fill_set]) |
                   (WAYS'(1) << victim_way);
    end

    // FLUSH: the first dirty line of the current set at or after fl_way.
    logic          fl_found;
    logic [YB-1:0] fl_found_way;
    always_comb begin
        logic [WAYS-1:0] d;
        fl_found = 1'b0;
        fl_found_way = '0;
        d = flushing ? valid[fl_bank][fl_set] & dirty[fl_bank][fl_set] & ways_mask &
                       ({WAYS{1'b1}} << fl_way) : '0;
        if (d != '0)
            for (int w = WAYS - 1; w >= 0; w--)
                if (d[w]) begin
                    fl_found = 1'b1;
                    fl_found_way = YB'(w);
                end
    end

    // ---- what this clock does ----------------------------------------------
    logic idle;
    logic serve_go, serve_urb, serve_unc, serve_cached, serve_stall;
    logic [MB-1:0] serve_entry;
    always_comb begin
        idle = !releasing && !flushing;
        serve_go = idle && cmd == CMD_SERVE && q_count[sb] != 0 &&
                   cmd_now >= busy_until[sb];
        serve_urb = serve_go && (head.target == T_URB || head.target == T_SLM);
        serve_unc = serve_go && head.target == T_UNCACHED;
        serve_cached = serve_go && !serve_urb && !serve_unc;
        serve_entry = !serve_match[MB] ? serve_match[MB-1:0] : serve_free[MB-1:0];
        serve_stall = (serve_unc || (serve_cached && !hit_found)) && serve_match[MB] &&
                      serve_free[MB];
    end

    logic push_en, pop_en;
    rep_t push_r;
    always_comb begin
        push_en = 1'b0;
        push_r = '0;
        pop_en = idle && cmd == CMD_RPOP && h_count != 0;
        if (releasing) begin
            push_en = 1'b1;
            push_r.due  = rel_due;
            push_r.addr = m_wait[rel_entry][rel_index[WIB-1:0]].addr;
            push_r.tag  = m_wait[rel_entry][rel_index[WIB-1:0]].tag;
            push_r.mtag = m_wait[rel_entry][rel_index[WIB-1:0]].mtag;
            push_r.op   = m_wait[rel_entry][rel_index[WIB-1:0]].op;
            push_r.hit  = 1'b0;
            push_r.port = m_wait[rel_entry][rel_index[WIB-1:0]].port;
        end else if (serve_urb || (serve_cached && hit_found)) begin
            push_en = 1'b1;
            push_r.due  = cmd_now + (serve_urb ? 64'(cfg_urb_latency) : 64'(cfg_hit_latency));
            push_r.addr = head.addr;
            push_r.tag  = head.tag;
            push_r.mtag = head.mtag;
            push_r.op   = head.op;
            push_r.hit  = 1'b1;
            push_r.port = head.port;
        end
    end

    // ---- the reply heap (as units/l3/l3.c reply_push / reply_pop) ------------
    // Every move reads an entry the same operation has not written yet, so
    // reading the old array is the C model's in-place sift.
    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            h_count <= '0;
        end else if (push_en && int'(h_count) < RCAP) begin
            int i;
            logic done;
            i = int'(h_count);
            done = 1'b0;
            for (int k = 0; k < RLEVELS; k++)
                if (!done && i != 0 && heap[(i - 1) / 2].due > push_r.due) begin
                    heap[i] <= heap[(i - 1) / 2];
                    i = (i - 1) / 2;
                end else
                    done = 1'b1;
            heap[i] <= push_r;
            h_count <= h_count + 1'b1;
        end else if (pop_en) begin
            int i, c, n;
            logic done;
            rep_t last;
            n = int'(h_count) - 1;
            last = heap[n];
            i = 0;
            c = 0;
            done = 1'b0;
            for (int k = 0; k < RLEVELS; k++)
                if (!done) begin
                    c = 2 * i + 1;
                    if (c >= n)
                        done = 1'b1;
                    else begin
                        if (c + 1 < n && heap[c + 1].due < heap[c].due)
                            c = c + 1;
                        if (heap[c].due >= last.due)
                            done = 1'b1;
                        else begin
                            heap[i] <= heap[c];
                            i = c;
                        end
                    end
                end
            if (n != 0)
                heap[i] <= last;
            h_count <= h_count - 1'b1;
        end
    end

    // ---- registers -----------------------------------------------------------
    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            for (int b = 0; b < BANKS; b++) begin
                for (int s = 0; s < SETS; s++) begin
                    valid[b][s] <= '0;
                    dirty[b][s] <= '0;
                    lru[b][s] <= '0;
                end
                q_head[b] <= '0;
                q_count[b] <= '0;
                busy_until[b] <= '0;
            end
            for (int i = 0; i < MSHRS; i++) begin
                m_used[i] <= 1'b0;
                m_line[i] <= '0;
                m_count[i] <= '0;
            end
            mq_head <= '0;
            mq_count <= '0;
            releasing <= 1'b0;
            rel_entry <= '0;
            rel_index <= '0;
            rel_due <= '0;
            flushing <= 1'b0;
            fl_bank <= '0;
            fl_set <= '0;
            fl_way <= '0;
            overflow <= 1'b0;
            {st_reads, st_writes, st_atomics, st_hits, st_misses, st_merged} <= '0;
            {st_evictions, st_writebacks, st_urb, st_uncached, st_mshr_stalls} <= '0;
            {st_queue_cycles, st_ro_reads, st_slm_unallocated} <= '0;
        end else begin
            if (push_en && int'(h_count) >= RCAP)
                overflow <= 1'b1;

            if (releasing) begin
                // one waiter of the filled line per clock, in arrival order
                if (rel_index + 1'b1 == m_count[rel_entry]) begin
                    releasing <= 1'b0;
                    m_used[rel_entry] <= 1'b0;
                    m_count[rel_entry] <= '0;
                end
                rel_index <= rel_index + 1'b1;
            end else if (flushing) begin
                // one dirty line written back per clock; a set with none left: the next
                if (fl_found) begin
                    st_writebacks <= st_writebacks + 1;
                    mq[MQB'(mq_head + MQB'(mq_count))] <=
                        '{line: tags[fl_bank][fl_set][fl_found_way], op: OP_WRITE, wb: 1'b1};
                    mq_count <= mq_count + 1'b1;
                    if (int'(mq_count) >= MQ)
                        overflow <= 1'b1;
                    fl_way <= 8'(fl_found_way) + 8'd1;
                end else begin
                    fl_way <= '0;
                    fl_set <= fl_set + 1'b1;
                    if (int'(fl_set) == SETS - 1) begin
                        fl_bank <= fl_bank + 1'b1;
                        if (int'(fl_bank) + 1 >= int'(cfg_banks)) begin
                            // written back: invalidate everything
                            flushing <= 1'b0;
                            for (int b = 0; b < BANKS; b++)
                                for (int s = 0; s < SETS; s++) begin
                                    valid[b][s] <= '0;
                                    dirty[b][s] <= '0;
                                    lru[b][s] <= '0;
                                end
                        end
                    end
                end
            end else begin
                case (cmd)
                CMD_FLUSH: begin
                    flushing <= 1'b1;
                    fl_bank <= '0;
                    fl_set <= '0;
                    fl_way <= '0;
                end
                CMD_FILL: if (cmd_tag != 32'hffffffff && !fill_match[MB]) begin
                    if (fill_cached) begin
                        logic [YB-1:0] w;
                        w = fill_present ? fill_way_present : victim_way;
                        if (!fill_present) begin
                            lru[fill_bank][fill_set] <= fill_lru;
                            if (valid[fill_bank][fill_set][w]) begin
                                st_evictions <= st_evictions + 1;
                                if (dirty[fill_bank][fill_set][w]) begin
                                    st_writebacks <= st_writebacks + 1;
                                    mq[MQB'(mq_head + MQB'(mq_count))] <=
                                        '{line: tags[fill_bank][fill_set][w], op: OP_WRITE,
                                          wb: 1'b1};
                                    mq_count <= mq_count + 1'b1;
                                    if (int'(mq_count) >= MQ)
                                        overflow <= 1'b1;
                                end
                            end
                        end
                        tags[fill_bank][fill_set][w] <= fill_line;
                        valid[fill_bank][fill_set][w] <= 1'b1;
                        dirty[fill_bank][fill_set][w] <= fill_dirty ||
                            (fill_present && dirty[fill_bank][fill_set][w]);
                    end
                    releasing <= 1'b1;
                    rel_entry <= fill_match[MB-1:0];
                    rel_index <= '0;
                    rel_due <= cmd_now + 64'(cfg_fill_latency);
                end
                CMD_ENQ: begin
                    q[enq_bank][QB'(q_head[enq_bank] + QB'(q_count[enq_bank]))] <=
                        '{addr: cmd_addr, tag: cmd_tag, mtag: cmd_mtag, op: cmd_op,
                          target: cmd_target, port: cmd_port};
                    q_count[enq_bank] <= q_count[enq_bank] + 1'b1;
                    if (int'(q_count[enq_bank]) >= QDEPTH)
                        overflow <= 1'b1;
                end
                CMD_SERVE: begin
                    if (q_count[sb] > 8'd1)
                        st_queue_cycles <= st_queue_cycles + 64'(q_count[sb]) - 64'd1;
                    if (serve_stall)
                        st_mshr_stalls <= st_mshr_stalls + 1;
                    else if (serve_go) begin
                        q_head[sb] <= q_head[sb] + 1'b1;
                        q_count[sb] <= q_count[sb] - 1'b1;
                        if (serve_urb) begin
                            st_urb <= st_urb + 1;
                            if (head.target == T_SLM && !cfg_slm_on)
                                st_slm_unallocated <= st_slm_unallocated + 1;
                        end else begin
                            if (serve_unc)
                                st_uncached <= st_uncached + 1;
                            else begin
                                if (head.target == T_RO)
                                    st_ro_reads <= st_ro_reads + 1;
                                if (head.op == OP_READ)
                                    st_reads <= st_reads + 1;
                                else if (head.op == OP_WRITE)
                                    st_writes <= st_writes + 1;
                                else begin
                                    st_atomics <= st_atomics + 1;
                                    busy_until[sb] <= cmd_now + 64'(cfg_atomic_cycles);
                                end
                            end
                            if (serve_cached && hit_found) begin
                                st_hits <= st_hits + 1;
                                if (head.op != OP_READ)
                                    dirty[sb][head_set][hit_way] <= 1'b1;
                            end else begin
                                // a miss (or uncached): into the line's miss entry
                                if (serve_cached)
                                    st_misses <= st_misses + 1;
                                if (serve_match[MB]) begin
                                    m_used[serve_entry] <= 1'b1;
                                    m_line[serve_entry] <= head_line;
                                end
                                if (serve_match[MB] || m_count[serve_entry] == 0) begin
                                    mq[MQB'(mq_head + MQB'(mq_count))] <= '{line: head_line,
                                        op: serve_unc ? head.op : OP_READ, wb: 1'b0};
                                    mq_count <= mq_count + 1'b1;
                                    if (int'(mq_count) >= MQ)
                                        overflow <= 1'b1;
                                end else if (serve_cached)
                                    st_merged <= st_merged + 1;
                                m_wait[serve_entry][serve_match[MB] ? '0 :
                                    m_count[serve_entry][WIB-1:0]] <= head;
                                m_count[serve_entry] <= (serve_match[MB] ? '0 :
                                    m_count[serve_entry]) + 1'b1;
                                if (!serve_match[MB] && int'(m_count[serve_entry]) >= WPE)
                                    overflow <= 1'b1;
                            end
                        end
                    end
                end
                CMD_MPOP: if (mq_count != 0) begin
                    mq_head <= mq_head + 1'b1;
                    mq_count <= mq_count - 1'b1;
                end
                CMD_NOP, CMD_RPOP: ;   // RPOP: the heap pops (above)
                default: ;
                endcase
            end
        end
    end

    // ---- outputs -------------------------------------------------------------
    always_comb
        for (int b = 0; b < BANKS; b++)
            queue_counts[8 * b +: 8] = q_count[b];
    assign busy          = releasing || flushing;
    assign mem_valid     = mq_count != 0;
    assign mem_count     = 16'(mq_count);
    assign mem_line      = mq[mq_head].line;
    assign mem_op        = mq[mq_head].op;
    assign mem_writeback = mq[mq_head].wb;
    assign reply_valid   = h_count != 0;
    assign reply_due     = heap[0].due;
    assign reply_addr    = heap[0].addr;
    assign reply_tag     = heap[0].tag;
    assign reply_mtag    = heap[0].mtag;
    assign reply_op      = heap[0].op;
    assign reply_hit     = heap[0].hit;
    assign reply_port    = heap[0].port;
    assign reply_count   = 16'(h_count);
endmodule
