/* The vDSO's ELF image (vdso_image.h). */
#include "vdso_image.h"

#include <elf.h>
#include <string.h>

#define PAGE 4096UL

const char* const lc_vdso_names[LC_VDSO_FUNCTIONS][2] = {
    {"__vdso_clock_gettime", "clock_gettime"},
    {"__vdso_gettimeofday", "gettimeofday"},
    {"__vdso_time", "time"},
};

/* The number of symbols a DT_GNU_HASH table covers: past the highest bucket's chain end. */
static uint32_t gnu_hash_count(const uint32_t* table) {
    const uint32_t buckets = table[0], first = table[1], bloom = table[2];
    const uint32_t* bucket = table + 4 + bloom * 2; /* 64-bit bloom words */
    const uint32_t* chain = bucket + buckets;
    uint32_t last = 0;
    for (uint32_t i = 0; i < buckets; ++i)
        if (bucket[i] > last) last = bucket[i];
    if (last < first) return first;
    while (!(chain[last - first] & 1)) ++last;
    return last + 1;
}

int lc_vdso_image_open(uintptr_t base, struct lc_vdso_image* image) {
    if (!base) return 0;
    const Elf64_Ehdr* header = (const Elf64_Ehdr*)base;
    if (memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_ident[EI_CLASS] != ELFCLASS64) return 0;
    const Elf64_Phdr* segments = (const Elf64_Phdr*)(base + header->e_phoff);
    const Elf64_Dyn* dynamic = 0;
    int have_load = 0;
    for (int i = 0; i < header->e_phnum; ++i) {
        if (segments[i].p_type == PT_LOAD && !have_load) {
            image->bias = base + segments[i].p_offset - segments[i].p_vaddr;
            image->start = base;
            image->end = (base + segments[i].p_offset + segments[i].p_memsz + PAGE - 1) & ~(PAGE - 1);
            have_load = 1;
        }
        if (segments[i].p_type == PT_DYNAMIC) dynamic = (const Elf64_Dyn*)(base + segments[i].p_offset);
    }
    if (!have_load || !dynamic) return 0;
    const uint32_t *hash = 0, *gnu_hash = 0;
    image->symbols = 0;
    image->names = 0;
    for (; dynamic->d_tag != DT_NULL; ++dynamic) {
        const uintptr_t at = image->bias + dynamic->d_un.d_ptr;
        if (dynamic->d_tag == DT_SYMTAB) image->symbols = (const void*)at;
        if (dynamic->d_tag == DT_STRTAB) image->names = (const char*)at;
        if (dynamic->d_tag == DT_HASH) hash = (const uint32_t*)at;
        if (dynamic->d_tag == DT_GNU_HASH) gnu_hash = (const uint32_t*)at;
    }
    if (!image->symbols || !image->names || (!hash && !gnu_hash)) return 0;
    image->count = hash ? hash[1] : gnu_hash_count(gnu_hash);
    return 1;
}

uintptr_t lc_vdso_image_function(const struct lc_vdso_image* image, const char* name) {
    const Elf64_Sym* symbols = (const Elf64_Sym*)image->symbols;
    for (uint32_t i = 0; i < image->count; ++i) {
        const Elf64_Sym* symbol = &symbols[i];
        if (ELF64_ST_TYPE(symbol->st_info) != STT_FUNC || symbol->st_shndx == SHN_UNDEF) continue;
        if (symbol->st_size != 0 && symbol->st_size < LC_JUMP_SIZE) continue;
        if (strcmp(image->names + symbol->st_name, name) == 0) return image->bias + symbol->st_value;
    }
    return 0;
}

void lc_jump_code(uintptr_t target, unsigned char code[LC_JUMP_SIZE]) {
    static const unsigned char jump[LC_JUMP_SIZE] = {0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xe0};
    memcpy(code, jump, sizeof jump);
    memcpy(code + 2, &target, sizeof target);
}
