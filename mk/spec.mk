# mk/spec.mk - the command/state/register spec: spec/data/gen*.xml -> build/gen/
# spec_genN_pack.{h,c} and spec_common.{h,c} (ids, superset structs) through
# spec/gen_pack.py, and `make check-spec`, which
# compares the data with Mesa's genxml in ../shared/reference/genxml.

SPEC_GENS     := 4 7 8 9
SPEC_DATA     := $(wildcard spec/data/gen*.xml)
SPEC_GEN_H    := $(foreach g,$(SPEC_GENS),$(GEN)/spec_gen$(g)_pack.h) $(GEN)/spec_common.h
SPEC_GEN_C    := $(foreach g,$(SPEC_GENS),$(GEN)/spec_gen$(g)_pack.c) $(GEN)/spec_common.c
SPEC_REFDIR   ?= ../shared/reference/genxml

GEN_HEADERS   += $(SPEC_GEN_H)
GEN_SOURCES   += $(SPEC_GEN_C)

# One run writes every generation (a stamp keeps make from running it per file);
# a generated file deleted behind make's back is written again (atomically).
$(SPEC_GEN_H) $(SPEC_GEN_C): $(GEN)/.spec-stamp
	@test -f $@ || $(PYTHON) spec/gen_pack.py spec/data $(GEN) $(SPEC_GENS)
$(GEN)/.spec-stamp: spec/gen_pack.py $(SPEC_DATA)
	@mkdir -p $(GEN)
	$(PYTHON) spec/gen_pack.py spec/data $(GEN) $(SPEC_GENS)
	@touch $@

.PHONY: check-spec spec-check-quiet
## check-spec: compare spec/data with the reference genxml, the trace decodes and the seeds; list every difference
check-spec:
	$(PYTHON) spec/check_spec.py spec/data $(SPEC_REFDIR) spec/check_spec_allow.txt

# The same check, quietly, before the test suites run (make test-release).
spec-check-quiet:
	@$(PYTHON) spec/check_spec.py --quiet spec/data $(SPEC_REFDIR) spec/check_spec_allow.txt

TEST_DEPS     += spec-check-quiet
