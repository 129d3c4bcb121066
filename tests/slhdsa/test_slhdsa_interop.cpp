#include <gtest/gtest.h>
TEST(SlhDsaInterop, Placeholder) {}
