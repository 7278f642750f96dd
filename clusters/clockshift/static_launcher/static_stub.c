/* What the clock launcher puts into a statically linked program besides the
 * shifted clocks (stub_image.h): where the clock file is, and the code the
 * program starts with.
 *
 * lc_stub_resume runs once, at the program's first instruction: it reaps
 * the launcher's tracer (a child of this process, which ends right after it
 * let go of it) with wait4, so no zombie child is left, then restores every
 * register it used and jumps to the program's real entry. Freestanding: no
 * C library, only raw system calls. */
#define _GNU_SOURCE
#include <stdint.h>

#include "../clock_source.h"
#include "stub_image.h"

char lc_stub_path[LC_STUB_PATH_SIZE];
int lc_stub_tracer;
uintptr_t lc_stub_entry;

const char* lc_clock_file_path(void) { return lc_stub_path[0] ? lc_stub_path : 0; }

/* wait4(tracer, NULL, __WALL, NULL), again while interrupted (-EINTR). */
__asm__(
    ".text\n"
    ".globl lc_stub_resume\n"
    ".hidden lc_stub_resume\n"
    ".type lc_stub_resume, @function\n"
    "lc_stub_resume:\n"
    "    pushfq\n"
    "    push %rax\n"
    "    push %rcx\n"
    "    push %rdx\n"
    "    push %rsi\n"
    "    push %rdi\n"
    "    push %r10\n"
    "    push %r11\n"
    "1:  mov $61, %eax\n"
    "    movl lc_stub_tracer(%rip), %edi\n"
    "    xor %esi, %esi\n"
    "    mov $0x40000000, %edx\n"
    "    xor %r10d, %r10d\n"
    "    syscall\n"
    "    cmp $-4, %rax\n"
    "    je 1b\n"
    "    pop %r11\n"
    "    pop %r10\n"
    "    pop %rdi\n"
    "    pop %rsi\n"
    "    pop %rdx\n"
    "    pop %rcx\n"
    "    pop %rax\n"
    "    popfq\n"
    "    jmp *lc_stub_entry(%rip)\n"
    ".size lc_stub_resume, . - lc_stub_resume\n");
