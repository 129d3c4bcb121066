// Test support: whether this test binary (and the pqsig it runs, built with the same flags) is an
// AddressSanitizer + UBSan build (-DPQSIG_SANITIZE=ON). Some conditions a test creates on purpose
// are ones the sanitizer runtimes themselves cannot work under; those tests name the reason.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define PQSIG_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PQSIG_TEST_ASAN 1
#endif
#endif
