/* isa/intel/eu_send.c - message descriptors of send instructions: fields by id and the
 * message a send carries, through the generated descriptor reader (build/gen/msg_desc.h,
 * from opcodes.txt [message-descriptors] and spec/eu/descriptors.txt).
 */
#include "isa/intel/eu_isa.h"

bool eu_send_desc_field(const struct eu_instruction *in, enum msg_desc_field f, uint32_t *value)
{
    if (!in->is_send || in->desc_is_reg)
        return false;
    return msg_desc_field(in->gen, in->sfid, in->desc, f, value);
}

const char *eu_send_message_name(const struct eu_instruction *in)
{
    if (!in->is_send || in->desc_is_reg)
        return NULL;
    return msg_desc_message_name(in->gen, in->sfid, in->desc);
}
