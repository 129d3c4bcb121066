// placeholder replaced below
#include <gtest/gtest.h>
TEST(HttpsigInterop, Placeholder) { GTEST_SKIP(); }
