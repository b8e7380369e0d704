#pragma once
// NSYS_AI_TEST_ASAN is 1 when this test is built with AddressSanitizer. Tests that cannot run under the sanitizers
// skip on it.
#include "nsys/support/sanitizers.h"

#define NSYS_AI_TEST_ASAN NSYS_AI_ASAN
