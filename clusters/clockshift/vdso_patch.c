/* The vDSO patch (vdso_patch.h). */
#include "vdso_patch.h"

#if defined(__x86_64__)
#include <elf.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "raw_syscall.h"

#define JUMP_SIZE 12 /* movabs rax, imm64 (10 bytes); jmp rax (2 bytes) */
#define PAGE 4096UL

struct vdso_table {
    uintptr_t start, end; /* the mapping, whole pages: the kernel refuses to split it */
    uintptr_t bias;       /* add to a symbol's value for its address */
    const Elf64_Sym* symbols;
    const char* names;
    uint32_t count;
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

static int read_table(struct vdso_table* table) {
    const uintptr_t base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
    if (!base) return 0;
    const Elf64_Ehdr* header = (const Elf64_Ehdr*)base;
    if (memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_ident[EI_CLASS] != ELFCLASS64) return 0;
    const Elf64_Phdr* segments = (const Elf64_Phdr*)(base + header->e_phoff);
    const Elf64_Dyn* dynamic = 0;
    int have_load = 0;
    for (int i = 0; i < header->e_phnum; ++i) {
        if (segments[i].p_type == PT_LOAD && !have_load) {
            table->bias = base + segments[i].p_offset - segments[i].p_vaddr;
            table->start = base;
            table->end = (base + segments[i].p_offset + segments[i].p_memsz + PAGE - 1) & ~(PAGE - 1);
            have_load = 1;
        }
        if (segments[i].p_type == PT_DYNAMIC) dynamic = (const Elf64_Dyn*)(base + segments[i].p_offset);
    }
    if (!have_load || !dynamic) return 0;
    const uint32_t *hash = 0, *gnu_hash = 0;
    table->symbols = 0;
    table->names = 0;
    for (; dynamic->d_tag != DT_NULL; ++dynamic) {
        const uintptr_t at = table->bias + dynamic->d_un.d_ptr;
        if (dynamic->d_tag == DT_SYMTAB) table->symbols = (const Elf64_Sym*)at;
        if (dynamic->d_tag == DT_STRTAB) table->names = (const char*)at;
        if (dynamic->d_tag == DT_HASH) hash = (const uint32_t*)at;
        if (dynamic->d_tag == DT_GNU_HASH) gnu_hash = (const uint32_t*)at;
    }
    if (!table->symbols || !table->names || (!hash && !gnu_hash)) return 0;
    table->count = hash ? hash[1] : gnu_hash_count(gnu_hash);
    return 1;
}

static void write_jump(uintptr_t at, void (*target)(void)) {
    unsigned char code[JUMP_SIZE] = {0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xe0};
    const uintptr_t address = (uintptr_t)target;
    memcpy(code + 2, &address, sizeof address);
    volatile unsigned char* out = (volatile unsigned char*)at;
    for (int i = 0; i < JUMP_SIZE; ++i) out[i] = code[i];
}

/* Makes the whole mapping writable (or back to read+exec): mprotect of part
 * of it fails with EINVAL, since the kernel does not split the vDSO. */
static int set_writable(const struct vdso_table* table, int writable) {
    const long protection = PROT_READ | PROT_EXEC | (writable ? PROT_WRITE : 0);
    return lc_syscall3(SYS_mprotect, table->start, table->end - table->start, protection) == 0;
}

int lc_vdso_patch(const struct lc_vdso_redirect* redirects, int count) {
    struct vdso_table table = {0, 0, 0, 0, 0, 0};
    if (!read_table(&table) || !set_writable(&table, 1)) return -1;
    uintptr_t done[16];
    int patched = 0;
    for (uint32_t i = 0; i < table.count; ++i) {
        const Elf64_Sym* symbol = &table.symbols[i];
        if (ELF64_ST_TYPE(symbol->st_info) != STT_FUNC || symbol->st_shndx == SHN_UNDEF) continue;
        if (symbol->st_size != 0 && symbol->st_size < JUMP_SIZE) continue;
        const char* name = table.names + symbol->st_name;
        for (int r = 0; r < count; ++r) {
            if (strcmp(name, redirects[r].name) != 0) continue;
            const uintptr_t at = table.bias + symbol->st_value;
            int seen = 0;
            for (int d = 0; d < patched; ++d) seen |= done[d] == at;
            if (seen) break;
            if (patched == (int)(sizeof done / sizeof *done)) break;
            write_jump(at, redirects[r].replacement);
            done[patched++] = at;
            break;
        }
    }
    return set_writable(&table, 0) ? patched : -1;
}

#else
int lc_vdso_patch(const struct lc_vdso_redirect* redirects, int count) {
    (void)redirects;
    (void)count;
    return -1;
}
#endif
