// SPDX-License-Identifier: MIT
// brute.c: the languages of scenario behaviours by definition, for the
// operator tests (tests/scenario/run.sh). Independent of the compiler: no
// automata, only sets of words up to a length, each operator computed from
// its definition over those sets.
//
//   brute N ACTIONS BEHAVIOUR
//
// ACTIONS: the action names, comma-separated (actions without parameters);
// prints every word of at most N steps that BEHAVIOUR denotes, one a line,
// steps separated by spaces, `<empty>` for the empty word.
//
// The definitions (docs/LANGUAGE.md, "Scenarios"): an action name is the
// one-step word; `_` every one-step word; `...` every word; `B1; B2`
// concatenation; `B1 -> B2` is B1; ...; B2; `|` union; `&` and `||`
// intersection; `|||` every interleaving of a word of each; `|?|` the words
// over the union of the two signatures whose projection on each signature is
// in that operand; `*`, `+`, `?`, `{n}`, `{n,m}` repetition; `!B` the words
// not in B. The signature of a behaviour: the actions it names; every action
// for `_`, `...`, `!` and `->`; the intersection of the operands' for `&` and
// `||`, their union otherwise.
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXK 8
#define MAXN 8

static int K, N;           // letters, maximum length
static char names[MAXK][32];
static int nwords;         // words of length 0..N
static int offset[MAXN + 2]; // first index of the words of each length

typedef bool *Lang;        // nwords flags
typedef unsigned Sig;      // bit per action

// A word as its length and letters; index = offset[len] + letters in base K.
static int word_index(const int *w, int len) {
  int v = 0;
  for (int i = 0; i < len; i++)
    v = v * K + w[i];
  return offset[len] + v;
}

static int word_of(int idx, int *w) {
  int len = 0;
  while (len < N && idx >= offset[len + 1])
    len++;
  int v = idx - offset[len];
  for (int i = len - 1; i >= 0; i--)
    w[i] = v % K, v /= K;
  return len;
}

static Lang lang_new(void) { return calloc((size_t)nwords, sizeof(bool)); }

static Lang concat(Lang a, Lang b) {
  Lang r = lang_new();
  int u[MAXN], v[MAXN], w[MAXN];
  for (int i = 0; i < nwords; i++) {
    if (!a[i])
      continue;
    int lu = word_of(i, u);
    for (int j = 0; j < offset[N - lu + 1]; j++) {
      if (!b[j])
        continue;
      int lv = word_of(j, v);
      memcpy(w, u, sizeof(int) * lu);
      memcpy(w + lu, v, sizeof(int) * lv);
      r[word_index(w, lu + lv)] = true;
    }
  }
  return r;
}

static Lang empty_word(void) {
  Lang r = lang_new();
  r[0] = true;
  return r;
}

static Lang all_words(void) {
  Lang r = lang_new();
  for (int i = 0; i < nwords; i++)
    r[i] = true;
  return r;
}

static Lang unite(Lang a, Lang b) {
  Lang r = lang_new();
  for (int i = 0; i < nwords; i++)
    r[i] = a[i] || b[i];
  return r;
}

static Lang meet(Lang a, Lang b) {
  Lang r = lang_new();
  for (int i = 0; i < nwords; i++)
    r[i] = a[i] && b[i];
  return r;
}

// Every word of the form L^k, k >= min (star: 0, plus: 1).
static Lang repeat_from(Lang a, int min) {
  Lang r = min == 0 ? empty_word() : lang_new();
  Lang power = empty_word();
  for (int k = 1; k <= N + 1; k++) {
    power = concat(power, a);
    if (k >= min)
      r = unite(r, power);
  }
  if (min <= 1 && a[0])
    r[0] = true;
  return r;
}

// Interleavings of u and v into w at position pos.
static void interleave(const int *u, int lu, const int *v, int lv, int *w, int pos, Lang r) {
  if (!lu && !lv) {
    r[word_index(w, pos)] = true;
    return;
  }
  if (lu) {
    w[pos] = u[0];
    interleave(u + 1, lu - 1, v, lv, w, pos + 1, r);
  }
  if (lv) {
    w[pos] = v[0];
    interleave(u, lu, v + 1, lv - 1, w, pos + 1, r);
  }
}

static Lang shuffle(Lang a, Lang b) {
  Lang r = lang_new();
  int u[MAXN], v[MAXN], w[MAXN];
  for (int i = 0; i < nwords; i++) {
    if (!a[i])
      continue;
    int lu = word_of(i, u);
    for (int j = 0; j < offset[N - lu + 1]; j++)
      if (b[j])
        interleave(u, lu, v, word_of(j, v), w, 0, r);
  }
  return r;
}

static Lang sync_inter(Lang a, Sig sa, Lang b, Sig sb) {
  Lang r = lang_new();
  int w[MAXN], p[MAXN], q[MAXN];
  for (int i = 0; i < nwords; i++) {
    int len = word_of(i, w), lp = 0, lq = 0;
    bool ok = true;
    for (int k = 0; k < len; k++) {
      Sig bit = 1u << w[k];
      if (!((sa | sb) & bit))
        ok = false;
      if (sa & bit)
        p[lp++] = w[k];
      if (sb & bit)
        q[lq++] = w[k];
    }
    r[i] = ok && a[word_index(p, lp)] && b[word_index(q, lq)];
  }
  return r;
}

//
// The parser: the grammar of docs/LANGUAGE.md, evaluating as it goes.
//

static const char *p;

static void skip(void) {
  while (*p == ' ')
    p++;
}

static bool eat(const char *s) {
  skip();
  size_t n = strlen(s);
  if (strncmp(p, s, n))
    return false;
  p += n;
  return true;
}

static _Noreturn void fail(const char *what) {
  fprintf(stderr, "brute: %s at '%s'\n", what, p);
  exit(2);
}

typedef struct {
  Lang l;
  Sig sig;
} Val;

static Val behaviour(void);

static Sig all_sig(void) { return (1u << K) - 1; }

static Val atom(void) {
  skip();
  if (eat("...")) 
    return (Val){all_words(), all_sig()};
  if (eat("(")) {
    Val v = behaviour();
    if (!eat(")"))
      fail("expected )");
    return v;
  }
  if (*p == '_' && !(p[1] >= 'a' && p[1] <= 'z')) {
    p++;
    Lang r = lang_new();
    for (int c = 0; c < K; c++)
      r[offset[1] + c] = true;
    return (Val){r, all_sig()};
  }
  for (int c = 0; c < K; c++) {
    size_t n = strlen(names[c]);
    if (!strncmp(p, names[c], n) && !(p[n] >= 'a' && p[n] <= 'z') &&
        !(p[n] >= 'A' && p[n] <= 'Z')) {
      p += n;
      Lang r = lang_new();
      r[offset[1] + c] = true;
      return (Val){r, 1u << c};
    }
  }
  fail("expected a behaviour");
}

static Val repetition(void) {
  if (eat("!")) {
    Val v = repetition();
    Lang r = lang_new();
    for (int i = 0; i < nwords; i++)
      r[i] = !v.l[i];
    return (Val){r, all_sig()};
  }
  Val v = atom();
  for (;;) {
    skip();
    if (p[0] == '*')
      p++, v.l = repeat_from(v.l, 0);
    else if (p[0] == '+')
      p++, v.l = repeat_from(v.l, 1);
    else if (p[0] == '?')
      p++, v.l = unite(v.l, empty_word());
    else if (p[0] == '{') {
      p++;
      int lo = (int)strtol(p, (char **)&p, 10), hi = lo;
      if (eat(","))
        hi = (int)strtol(p, (char **)&p, 10);
      if (!eat("}"))
        fail("expected }");
      Lang r = lang_new(), power = empty_word();
      for (int k = 0; k <= hi; k++) {
        if (k >= lo)
          r = unite(r, power);
        power = concat(power, v.l);
      }
      v.l = r;
    } else
      return v;
  }
}

static Val sequence(void) { // right-associative
  Val a = repetition();
  skip();
  if (eat("->")) {
    Val b = sequence();
    return (Val){concat(concat(a.l, all_words()), b.l), all_sig()};
  }
  if (eat(";")) {
    Val b = sequence();
    return (Val){concat(a.l, b.l), a.sig | b.sig};
  }
  return a;
}

static Val intersection(void) {
  Val a = sequence();
  while (skip(), *p == '&') {
    p++;
    Val b = sequence();
    a = (Val){meet(a.l, b.l), a.sig & b.sig};
  }
  return a;
}

static bool at_parallel(void) {
  skip();
  return !strncmp(p, "||", 2) || !strncmp(p, "|?|", 3);
}

static Val choice(void) {
  Val a = intersection();
  while (!at_parallel() && eat("|")) {
    Val b = intersection();
    a = (Val){unite(a.l, b.l), a.sig | b.sig};
  }
  return a;
}

static Val behaviour(void) {
  Val a = choice();
  for (;;) {
    if (eat("|||")) {
      Val b = choice();
      a = (Val){shuffle(a.l, b.l), a.sig | b.sig};
    } else if (eat("|?|")) {
      Val b = choice();
      a = (Val){sync_inter(a.l, a.sig, b.l, b.sig), a.sig | b.sig};
    } else if (eat("||")) {
      Val b = choice();
      a = (Val){meet(a.l, b.l), a.sig & b.sig};
    } else
      return a;
  }
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: brute N ACTIONS BEHAVIOUR\n");
    return 2;
  }
  N = atoi(argv[1]);
  if (N < 0 || N > MAXN)
    fail("bad N");
  for (char *s = strtok(argv[2], ","); s; s = strtok(NULL, ",")) {
    if (K == MAXK || strlen(s) >= sizeof names[0])
      fail("too many or too long action names");
    strcpy(names[K++], s);
  }
  offset[0] = 0;
  int count = 1;
  for (int len = 0; len <= N; len++) {
    offset[len + 1] = offset[len] + count;
    count *= K;
  }
  nwords = offset[N + 1];
  p = argv[3];
  Val v = behaviour();
  skip();
  if (*p)
    fail("unexpected text");
  int w[MAXN];
  for (int i = 0; i < nwords; i++) {
    if (!v.l[i])
      continue;
    int len = word_of(i, w);
    if (!len)
      puts("<empty>");
    for (int k = 0; k < len; k++)
      printf("%s%s", k ? " " : "", names[w[k]]);
    if (len)
      putchar('\n');
  }
  return 0;
}
