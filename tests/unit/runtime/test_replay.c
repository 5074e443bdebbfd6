// SPDX-License-Identifier: MIT
// Unit tests of mcrt_replay (runtime/engine/search.c): the rule-to-group lookup that
// every checker's apply_init and apply_rule call. Groups are in rule order;
// a group may have no binding (a parameter over an empty collection type).
#include <criterion/criterion.h>

#include "mcrt.h"

static int called_group = -1;
static uint64_t called_binding;

#define REPLAY(k)                                                                              \
  static bool replay_##k(McrtCtx *ctx, uint64_t b, const uint8_t *in, uint8_t *out) {          \
    (void)ctx, (void)in, (void)out;                                                            \
    called_group = k;                                                                          \
    called_binding = b;                                                                        \
    return true;                                                                               \
  }
REPLAY(0)
REPLAY(1)
REPLAY(2)
REPLAY(3)

// Rules 0-1 in group 0, none in group 1, 2-4 in group 2, 5 in group 3.
static const McrtRuleGroup groups[] = {
    {.name = "a", .first_rule = 0, .nbindings = 2},
    {.name = "empty", .first_rule = 2, .nbindings = 0},
    {.name = "b", .first_rule = 2, .nbindings = 3},
    {.name = "c", .first_rule = 5, .nbindings = 1},
};
static McrtReplay *const replays[] = {replay_0, replay_1, replay_2, replay_3};

static void expect(uint64_t rule, int group, uint64_t binding) {
  called_group = -1;
  cr_assert(mcrt_replay(groups, replays, 4, NULL, rule, NULL, NULL), "rule %llu",
            (unsigned long long)rule);
  cr_expect_eq(called_group, group, "rule %llu: group %d, want %d", (unsigned long long)rule,
               called_group, group);
  cr_expect_eq(called_binding, binding, "rule %llu: binding %llu, want %llu",
               (unsigned long long)rule, (unsigned long long)called_binding,
               (unsigned long long)binding);
}

Test(replay, every_rule_reaches_its_group_and_binding) {
  expect(0, 0, 0);
  expect(1, 0, 1);
  expect(2, 2, 0); // not the empty group that starts at the same rule
  expect(3, 2, 1);
  expect(4, 2, 2);
  expect(5, 3, 0);
}

Test(replay, rules_past_the_last_group_and_no_groups_are_refused) {
  called_group = -1;
  cr_expect(!mcrt_replay(groups, replays, 4, NULL, 6, NULL, NULL));
  cr_expect(!mcrt_replay(groups, replays, 4, NULL, UINT64_MAX, NULL, NULL));
  cr_expect(!mcrt_replay(groups, replays, 0, NULL, 0, NULL, NULL));
  cr_expect(!mcrt_replay(groups, replays, 3, NULL, 5, NULL, NULL)); // only a, empty, b
  cr_expect_eq(called_group, -1, "no replay function called");
}

Test(replay, one_group) {
  called_group = -1;
  cr_expect(mcrt_replay(groups + 3, replays + 3, 1, NULL, 5, NULL, NULL));
  cr_expect_eq(called_group, 3);
  cr_expect(!mcrt_replay(groups + 3, replays + 3, 1, NULL, 4, NULL, NULL));
}
