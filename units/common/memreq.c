/* units/common/memreq.c - the one way a memory model turns a request into its
 * reply (units/common/memreq.h). */
#include "units/common/memreq.h"

#include <string.h>

#include "fabric/msg.h"
#include "fabric/reply_queue.h"

void memreq_make_reply(struct msg *m, uint8_t hit)
{
    struct memreq q = *(const struct memreq *)m->payload;
    struct memreply *a = (struct memreply *)m->payload;
    memset(a, 0, sizeof *a);
    a->address = q.address;
    a->tag = q.tag;
    a->op = q.op;
    a->hit = hit;
    m->kind = MSG_MEMORY_RESPONSE;
    m->size = sizeof *a;
}

struct msg *memreq_reply_build(void *context, struct reply_queue_entry *e)
{
    (void)context;
    memreq_make_reply(e->msg, *(const uint8_t *)reply_queue_data(e));
    return e->msg;
}
