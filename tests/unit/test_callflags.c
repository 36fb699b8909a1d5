/* Call flags by name (common/model/gt_callflags.c): the regex rules and the exact names,
 * the same answers when the first lookups come from many threads at once (the rules are
 * compiled once, whoever asks first), and every rule of the table in use. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>

#include "gt_callflags.h"
#include "gt_callflags_table.h"
#include "gt_model.h"

static const struct {
    const char *name;
    uint32_t flags; /* the bits that must be set */
} cases[] = {
    {"glDrawArrays", GT_CALL_FLAG_RENDER},
    {"glMultiDrawElementsIndirect", GT_CALL_FLAG_RENDER},
    {"glClear", GT_CALL_FLAG_RENDER},
    {"glBindFramebufferEXT", GT_CALL_FLAG_SWAP_RENDERTARGET},
    {"glGetIntegerv", GT_CALL_FLAG_NO_SIDE_EFFECTS},
    {"glXSwapBuffers", GT_CALL_FLAG_END_FRAME},
};

enum { NTHREADS = 16, ROUNDS = 200 };

static pthread_barrier_t start;

/* Waits for the others, then looks every case up: 0 when all answers are right. */
static void *look_up(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&start);
    for (int r = 0; r < ROUNDS; ++r)
        for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i)
            if ((gt_callflags_lookup(cases[i].name) & cases[i].flags) != cases[i].flags)
                return (void *)cases[i].name;
    return NULL;
}

/* Runs first: no lookup has compiled the rules yet. */
static void first_lookups_on_many_threads(void **state)
{
    (void)state;
    pthread_t t[NTHREADS];
    assert_int_equal(pthread_barrier_init(&start, NULL, NTHREADS), 0);
    for (int i = 0; i < NTHREADS; ++i)
        assert_int_equal(pthread_create(&t[i], NULL, look_up, NULL), 0);
    for (int i = 0; i < NTHREADS; ++i) {
        void *wrong = NULL;
        assert_int_equal(pthread_join(t[i], &wrong), 0);
        if (wrong)
            fail_msg("wrong flags for %s on a thread", (const char *)wrong);
    }
    pthread_barrier_destroy(&start);
}

static void names_and_rules(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i)
        assert_int_equal(gt_callflags_lookup(cases[i].name) & cases[i].flags, cases[i].flags);
    assert_int_equal(gt_callflags_lookup("glVertex3f"), 0);
    assert_int_equal(gt_callflags_lookup("notAFunction"), 0);
}

/* The table holds every rule gt_callflags.c has room for: none dropped. */
static void no_rule_dropped(void **state)
{
    (void)state;
    assert_true(gt_callflags_num_rules > 0);
    assert_true(gt_callflags_num_rules <= GT_CALLFLAGS_MAX_RULES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(first_lookups_on_many_threads),
        cmocka_unit_test(names_and_rules),
        cmocka_unit_test(no_rule_dropped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
