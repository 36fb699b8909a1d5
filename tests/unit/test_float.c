/* The dump's fast "%.7g" for floats (formats/apitrace/at_float.c) against printf: where
 * it answers (it may decline, returning 0, and the dump uses printf), its text is
 * printf's, for special values, every power of ten and its neighbours, values next to
 * rounding ties, whole runs of neighbouring floats and a few million random ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "at_float.h"

static unsigned long answered, declined;

static void check(float f)
{
    char ours[32], want[64];
    int n = at_format_float7(ours, f);
    if (n == 0) {
        declined++;
        return;
    }
    answered++;
    snprintf(want, sizeof want, "%.7g", (double)f);
    if (strcmp(ours, want) != 0 || (size_t)n != strlen(want))
        fail_msg("%a: ours \"%s\", printf \"%s\"", (double)f, ours, want);
}

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static void check_run(float f, int each_side)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    for (int i = -each_side; i <= each_side; ++i)
        check(from_bits(u + (uint32_t)i));
}

static void test_special(void **state)
{
    (void)state;
    const float v[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 0.5f, 0.1f, 1e-45f,
                       3.4028235e38f, 1.17549435e-38f, 123456.7f, 1234567.0f, 12345678.0f,
                       9999999.5f, 0.00001f, 0.0001f, 1e-5f, 9.9999995e-5f, 1e7f, 1e-4f};
    for (size_t i = 0; i < sizeof v / sizeof *v; ++i)
        check_run(v[i], 64);
}

static void test_powers_of_ten(void **state)
{
    (void)state;
    for (int e = -40; e <= 38; ++e) {
        check_run((float)pow(10.0, e), 200);
        check_run((float)(5.0 * pow(10.0, e)), 50); /* x.5 ties at 7 digits */
        check_run(-(float)pow(10.0, e), 20);
    }
}

static void test_random(void **state)
{
    (void)state;
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 3000000; ++i) { /* any bits: exponents beyond 1e+-22 go to printf */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        check(from_bits((uint32_t)x));
    }
    answered = declined = 0;
    for (int i = 0; i < 3000000; ++i) { /* GL-like values: what traces hold */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        check((float)((int64_t)(x >> 40) - (1 << 23)) / (float)(1 << (x & 15)));
    }
    print_message("at_format_float7 on GL-like values: %lu as printf, %lu left to printf\n",
                  answered, declined);
    assert_true(answered > 9 * declined); /* ties at the 7th digit (x.5) go to printf */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_special),
        cmocka_unit_test(test_powers_of_ten),
        cmocka_unit_test(test_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
