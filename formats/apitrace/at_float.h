/* Fast "%.7g" for floats, the most common non-integer value in GL traces. */
#ifndef AT_FLOAT_H
#define AT_FLOAT_H

/* Writes printf("%.7g", (double)f) into out (at least 16 bytes) and returns its
 * length, or returns 0 when the value needs printf (NaN, infinities, zero, tiny or
 * huge exponents, or a decimal expansion too close to a rounding tie to decide
 * with double arithmetic). */
int at_format_float7(char *out, float f);

#endif
