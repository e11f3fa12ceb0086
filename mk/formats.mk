# mk/formats.mk - the surface format table: spec/formats/surface_formats.txt ->
# build/gen/surface_formats.{h,c} through spec/formats/gen_formats.py; the
# conversions that use it are units/common/format.c.

FORMATS_DATA := spec/formats/surface_formats.txt

$(GEN)/surface_formats.h $(GEN)/surface_formats.c &: spec/formats/gen_formats.py $(FORMATS_DATA)
	@mkdir -p $(GEN)
	$(PYTHON) spec/formats/gen_formats.py $(FORMATS_DATA) $(GEN)/surface_formats.h $(GEN)/surface_formats.c

GEN_HEADERS += $(GEN)/surface_formats.h
GEN_SOURCES += $(GEN)/surface_formats.c
