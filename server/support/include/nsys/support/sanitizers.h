#pragma once
// NSYS_AI_ASAN is 1 when this file is compiled with AddressSanitizer: gcc says so with __SANITIZE_ADDRESS__, clang
// (before 18) only through __has_feature. Code that must not touch glibc's heap directly (malloc_trim) and tests
// that cannot run under the sanitizer check it.
#if defined(__SANITIZE_ADDRESS__)
#define NSYS_AI_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NSYS_AI_ASAN 1
#endif
#endif
#ifndef NSYS_AI_ASAN
#define NSYS_AI_ASAN 0
#endif
