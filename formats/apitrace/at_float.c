/* The value is scaled by an exact power of ten so that its 7 significant digits sit
 * before the point; one correctly rounded multiplication or division errs by less
 * than 2.3e-9 there, so unless the fraction is within 1e-6 of one half, rounding the
 * scaled double gives exactly the digits printf would print. */
#include "at_float.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                             1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                             1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static double scale(double d, int k) { return k >= 0 ? d * p10[k] : d / p10[-k]; }

/* floor(log10(d)) for d > 0, or one off: from the binary exponent (d lies in
 * [2^(b-1), 2^b)), times log10(2) = 78913 / 2^18 to 6 digits; digits7 corrects it. */
static int exp10_estimate(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    int b = (int)((bits >> 52) & 0x7ff) - 1022; /* a float's value: a normal double */
    return ((b - 1) * 78913) >> 18;             /* arithmetic shift: floor */
}

/* The 7 rounded digits of d (> 0) and its decimal exponent; 0 when unsure. */
static int digits7(double d, char dig[7], int *exp10)
{
    int e = exp10_estimate(d);
    int k = 6 - e;
    if (k > 22 || k < -22)
        return 0;
    double x = scale(d, k);
    if (x < 1e6) { /* the estimate may be one off either way */
        k++, e--;
        if (k > 22)
            return 0;
        x = scale(d, k);
    } else if (x >= 1e7) {
        k--, e++;
        if (k < -22)
            return 0;
        x = scale(d, k);
    }
    if (x < 1e6 || x >= 1e7)
        return 0;
    double fl = (double)(uint32_t)x, frac = x - fl; /* x in [1e6, 1e7) */
    if (fabs(frac - 0.5) < 1e-6)
        return 0;
    uint32_t q = (uint32_t)fl + (frac > 0.5);
    if (q == 10000000) {
        q = 1000000;
        e++;
    }
    for (int i = 6; i >= 0; --i, q /= 10)
        dig[i] = (char)('0' + q % 10);
    *exp10 = e;
    return 1;
}

int at_format_float7(char *out, float f)
{
    double d = f;
    if (d != d || d == 0 || isinf(d))
        return 0;
    char dig[7], *p = out;
    int e;
    if (!digits7(fabs(d), dig, &e))
        return 0;
    if (d < 0)
        *p++ = '-';
    int nd = 7; /* %g drops trailing zeros */
    while (nd > 1 && dig[nd - 1] == '0')
        nd--;
    if (e < -4 || e >= 7) { /* d.dddddde+XX */
        *p++ = dig[0];
        if (nd > 1) {
            *p++ = '.';
            memcpy(p, dig + 1, (size_t)nd - 1);
            p += nd - 1;
        }
        int ae = e < 0 ? -e : e;
        *p++ = 'e';
        *p++ = e < 0 ? '-' : '+';
        *p++ = (char)('0' + ae / 10);
        *p++ = (char)('0' + ae % 10);
    } else if (e >= 0) { /* ddd.dddd */
        for (int i = 0; i <= e; ++i)
            *p++ = i < nd ? dig[i] : '0';
        if (nd > e + 1) {
            *p++ = '.';
            memcpy(p, dig + e + 1, (size_t)(nd - e - 1));
            p += nd - e - 1;
        }
    } else { /* 0.000ddd */
        *p++ = '0';
        *p++ = '.';
        for (int i = 0; i < -e - 1; ++i)
            *p++ = '0';
        memcpy(p, dig, (size_t)nd);
        p += nd;
    }
    *p = '\0';
    return (int)(p - out);
}
