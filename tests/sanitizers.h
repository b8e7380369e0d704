#pragma once
// NSYS_AI_TEST_ASAN is 1 when this test is built with AddressSanitizer: gcc says so with __SANITIZE_ADDRESS__, clang
// (before 18) only through __has_feature. Tests that cannot run under the sanitizers skip on it.
#if defined(__SANITIZE_ADDRESS__)
#define NSYS_AI_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NSYS_AI_TEST_ASAN 1
#endif
#endif
#ifndef NSYS_AI_TEST_ASAN
#define NSYS_AI_TEST_ASAN 0
#endif
