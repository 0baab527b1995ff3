/* The physical floor of a streamed 13a corpus BLEU: a plain single-threaded C program.
 *
 *     cc -O2 -o floor benchmarks/floor.c && ./floor HYP REF
 *
 * It does what `reference-bleu score -tok 13a -r REF -i HYP` must do and nothing more: it reads
 * both files line by line (getline), decodes each line as strict UTF-8, tokenizes it with TOK-13A
 * (spec/11-tokenization.md: the replacements of steps 1 and 2, the padding and the character map
 * of steps 3 and 4, the three two-character rules of steps 5 to 7 as left-to-right scans, the
 * split on Python's whitespace), and counts the clipped n-gram matches of orders 1 to 4 against
 * the one reference (BLEU-CLIP), c and r. It prints the summed statistics as one line,
 *
 *     matches M1 M2 M3 M4 totals T1 T2 T3 T4 c C r R
 *
 * which benchmarks/bench.py compares with the project's own. No Python, no case folding, one
 * reference, no segment rules: a floor for the project's streamed path to be measured against
 * (benchmarks/README.md), written from the spec, not from the project's kernel.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ORDERS 4

typedef uint32_t cp_t;

static void *grow(void *data, size_t *cap, size_t need, size_t size)
{
    if (*cap >= need) {
        return data;
    }
    size_t cap2 = *cap ? *cap : 64;
    while (cap2 < need) {
        cap2 *= 2;
    }
    data = realloc(data, cap2 * size);
    if (data == NULL) {
        fputs("floor: out of memory\n", stderr);
        exit(3);
    }
    *cap = cap2;
    return data;
}

/* Python's str.isspace(): the Unicode White_Space characters and U+001C..U+001F. */
static int is_space(cp_t c)
{
    if (c < 128) {
        return (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x20);
    }
    return c == 0x85 || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 ||
           c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

/* Strict UTF-8 (as Python decodes it): the code points of s[0..n) into *out; -1 if invalid. */
static long decode(const unsigned char *s, size_t n, cp_t **out, size_t *cap)
{
    *out = grow(*out, cap, n + 1, sizeof(cp_t));
    size_t i = 0, w = 0;
    while (i < n) {
        unsigned c = s[i];
        if (c < 0x80) {
            (*out)[w++] = c;
            i++;
            continue;
        }
        size_t len;
        cp_t v, low = 0x80, high = 0xbf;
        if (c >= 0xc2 && c <= 0xdf) {
            len = 2, v = c & 0x1f;
        }
        else if (c >= 0xe0 && c <= 0xef) {
            len = 3, v = c & 0x0f;
            low = c == 0xe0 ? 0xa0 : 0x80, high = c == 0xed ? 0x9f : 0xbf;
        }
        else if (c >= 0xf0 && c <= 0xf4) {
            len = 4, v = c & 0x07;
            low = c == 0xf0 ? 0x90 : 0x80, high = c == 0xf4 ? 0x8f : 0xbf;
        }
        else {
            return -1;
        }
        if (i + len > n || s[i + 1] < low || s[i + 1] > high) {
            return -1;
        }
        for (size_t k = 1; k < len; k++) {
            if (k > 1 && (s[i + k] < 0x80 || s[i + k] > 0xbf)) {
                return -1;
            }
            v = (v << 6) | (s[i + k] & 0x3f);
        }
        (*out)[w++] = v;
        i += len;
    }
    return (long)w;
}

/* One left-to-right replacement of the ASCII string `old` by the shorter `new`, in place. */
static size_t replace(cp_t *s, size_t n, const char *old, const char *new)
{
    size_t ol = strlen(old), nl = strlen(new), r = 0, w = 0;
    while (r < n) {
        size_t k = 0;
        while (k < ol && r + k < n && s[r + k] == (cp_t)old[k]) {
            k++;
        }
        if (k == ol) {
            for (size_t j = 0; j < nl; j++) {
                s[w++] = (cp_t)new[j];
            }
            r += ol;
        }
        else {
            s[w++] = s[r++];
        }
    }
    return w;
}

/* mteval-v13a.pl's class of step 4: { | } ~  [ \ ] ^ _ `  space ! " # $ % &  ( ) * +  : ; < = > ? @  / */
static int in_class(cp_t c)
{
    return (c >= 0x7b && c <= 0x7e) || (c >= 0x5b && c <= 0x60) || (c >= 0x20 && c <= 0x26) ||
           (c >= 0x28 && c <= 0x2b) || (c >= 0x3a && c <= 0x40) || c == 0x2f;
}

static int is_digit(cp_t c) { return c >= '0' && c <= '9'; }
static int is_point(cp_t c) { return c == '.' || c == ','; }

/* A line's tokens: spans of its final text. */
typedef struct {
    cp_t *a, *b; /* scratch: the decoded line, then two buffers each pass reads one of, writes the other */
    size_t acap, bcap;
    size_t *start, *len;
    size_t tcap, count;
    cp_t *text; /* the line's text, which the spans point into */
    size_t textcap;
} Line;

/* TOK-13A's steps 4 to 7 on the code points w[0..n) padded with a space each side, step 8 into the
 * line's spans (offset `base` into line->text): the rules as left-to-right passes over a small buffer. */
static void tokenize_word(Line *line, const cp_t *w, size_t n, size_t base)
{
    line->b = grow(line->b, &line->bcap, 3 * n + 8, sizeof(cp_t));
    line->a = grow(line->a, &line->acap, 8 * n + 16, sizeof(cp_t)); /* 3 passes: +2 per pair each */
    cp_t *in = line->b, *out = line->a;
    size_t *pos = NULL; /* positions are rebuilt below from the final text */
    (void)pos;
    size_t m = 0;
    in[m++] = ' ';
    for (size_t i = 0; i < n; i++) {
        if (w[i] < 128 && in_class(w[i])) {
            in[m++] = ' ', in[m++] = w[i], in[m++] = ' ';
        }
        else {
            in[m++] = w[i];
        }
    }
    in[m++] = ' ';
    for (int rule = 5; rule <= 7; rule++) {
        size_t i = 0, k = 0;
        while (i < m) {
            cp_t x = in[i], y = i + 1 < m ? in[i + 1] : 0;
            int hit = i + 1 < m && ((rule == 5 && !is_digit(x) && is_point(y)) ||
                                    (rule == 6 && is_point(x) && !is_digit(y)) ||
                                    (rule == 7 && is_digit(x) && y == '-'));
            if (hit && rule == 6) {
                out[k++] = ' ', out[k++] = x, out[k++] = ' ', out[k++] = y;
                i += 2;
            }
            else if (hit) {
                out[k++] = x, out[k++] = ' ', out[k++] = y, out[k++] = ' ';
                i += 2;
            }
            else {
                out[k++] = x;
                i++;
            }
        }
        m = k;
        cp_t *swap = in;
        in = out, out = swap;
    }
    /* the runs of non-space of the result are runs of the word: find them by walking both */
    size_t i = 0, j = 0; /* i in the result, j in the word */
    while (i < m) {
        while (i < m && in[i] == ' ') {
            i++;
        }
        if (i == m) {
            break;
        }
        size_t s = j;
        while (i < m && in[i] != ' ') {
            i++, j++;
        }
        line->start[line->count] = base + s;
        line->len[line->count++] = j - s;
    }
}

/* Whether a character is read by no rule of TOK-13A's steps 4 to 7: not a digit, point, comma or
 * dash, nor of the class of step 4. */
static int plain(cp_t c) { return c >= 128 || !(in_class(c) || is_digit(c) || is_point(c) || c == '-'); }

/* TOK-13A on the code points in line->a[0..n): tokens as spans of line->text. Word by word: a rule
 * reads whitespace only as a character that is no digit and none of . , - (as the padding is), so
 * each run of non-whitespace is tokenized alone between two spaces, and one with no character a
 * rule reads is one token. */
static void tokenize(Line *line, size_t n)
{
    while (n > 0 && is_space(line->a[n - 1])) { /* the pipeline's rstrip */
        n--;
    }
    int entity = 0;
    for (size_t i = 0; i < n && !entity; i++) {
        entity = line->a[i] == '&' || line->a[i] == '<';
    }
    if (entity) {
        n = replace(line->a, n, "<skipped>", "");
        n = replace(line->a, n, "&quot;", "\"");
        n = replace(line->a, n, "&amp;", "&");
        n = replace(line->a, n, "&lt;", "<");
        n = replace(line->a, n, "&gt;", ">");
    }
    /* the text keeps the line; line->a and line->b become scratch for the words */
    line->text = grow(line->text, &line->textcap, n + 1, sizeof(cp_t));
    memcpy(line->text, line->a, n * sizeof(cp_t));
    line->start = grow(line->start, &line->tcap, n + 2, sizeof(size_t));
    line->len = realloc(line->len, line->tcap * sizeof(size_t));
    line->count = 0;
    size_t i = 0;
    while (i < n) {
        while (i < n && is_space(line->text[i])) {
            i++;
        }
        size_t s = i;
        int simple = 1;
        while (i < n && !is_space(line->text[i])) {
            simple &= plain(line->text[i]);
            i++;
        }
        if (i == s) {
            break;
        }
        if (simple) {
            line->start[line->count] = s;
            line->len[line->count++] = i - s;
        }
        else {
            tokenize_word(line, line->text + s, i - s, s);
        }
    }
}

static uint64_t hash_span(const cp_t *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t k = 0; k < n; k++) {
        h = (h ^ s[k]) * 0x100000001b3ULL;
    }
    return h;
}

/* Open addressing tables, sized for each segment. */
typedef struct {
    long *slot; /* token table: index of a candidate token; n-gram table: an entry */
    size_t cap;
} Table;

static size_t table_size(Table *t, size_t items)
{
    size_t size = 16;
    while (size < 2 * items + 2) {
        size *= 2;
    }
    t->slot = grow(t->slot, &t->cap, size, sizeof(long));
    memset(t->slot, 0xff, size * sizeof(long));
    return size - 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fputs("usage: floor HYP REF\n", stderr);
        return 2;
    }
    FILE *files[2] = {fopen(argv[1], "rb"), fopen(argv[2], "rb")};
    if (files[0] == NULL || files[1] == NULL) {
        perror("floor");
        return 2;
    }
    char *raw[2] = {NULL, NULL};
    size_t rawcap[2] = {0, 0};
    Line lines[2];
    memset(lines, 0, sizeof(lines));
    long *ids[2] = {NULL, NULL};
    size_t idcap[2] = {0, 0};
    Table tokens = {0}, grams = {0};
    long *count = NULL, *ref_count = NULL;
    uint64_t *keys = NULL;
    size_t countcap = 0, refcap = 0, keycap = 0;
    uint64_t matches[ORDERS] = {0}, totals[ORDERS] = {0}, c_sum = 0, r_sum = 0, row = 0;
    for (;;) {
        ssize_t got[2];
        for (int f = 0; f < 2; f++) {
            got[f] = getline(&raw[f], &rawcap[f], files[f]);
        }
        if (got[0] < 0 || got[1] < 0) {
            if (got[0] >= 0 || got[1] >= 0) {
                fprintf(stderr, "floor: line counts differ at line %llu\n", (unsigned long long)row + 1);
                return 2;
            }
            break;
        }
        row++;
        for (int f = 0; f < 2; f++) {
            size_t n = (size_t)got[f];
            if (n > 0 && raw[f][n - 1] == '\n') {
                n--;
            }
            long points = decode((unsigned char *)raw[f], n, &lines[f].a, &lines[f].acap);
            if (points < 0) {
                fprintf(stderr, "floor: %s: line %llu is not valid UTF-8\n", argv[1 + f], (unsigned long long)row);
                return 2;
            }
            tokenize(&lines[f], (size_t)points);
        }
        Line *hyp = &lines[0], *ref = &lines[1];
        size_t c = hyp->count, r = ref->count;
        c_sum += c, r_sum += r;
        for (int n = 0; n < ORDERS; n++) {
            totals[n] += c > (size_t)n ? c - (size_t)n : 0;
        }
        if (c == 0) {
            continue;
        }
        /* token ids: each distinct candidate token a number; a reference token absent from it -1 */
        size_t mask = table_size(&tokens, c);
        for (int f = 0; f < 2; f++) {
            Line *l = &lines[f];
            ids[f] = grow(ids[f], &idcap[f], l->count + 1, sizeof(long));
            for (size_t k = 0; k < l->count; k++) {
                const cp_t *s = l->text + l->start[k];
                size_t len = l->len[k], at = hash_span(s, len) & mask;
                long id = -1;
                while (tokens.slot[at] >= 0) {
                    size_t j = (size_t)tokens.slot[at];
                    if (hyp->len[j] == len && memcmp(hyp->text + hyp->start[j], s, len * sizeof(cp_t)) == 0) {
                        id = ids[0][j];
                        break;
                    }
                    at = (at + 1) & mask;
                }
                if (id < 0 && f == 0) {
                    tokens.slot[at] = (long)k;
                    id = (long)k;
                }
                ids[f][k] = id;
            }
        }
        /* Per order: the candidate's n-grams counted, the reference's windows counted against them.
         * An n-gram is its ids packed into one integer (ids < c, so sum id_k c^(n-1-k) is unique
         * while c^n < 2^62); unigrams are counted in arrays indexed by id. */
        count = grow(count, &countcap, c, sizeof(long));
        ref_count = grow(ref_count, &refcap, c, sizeof(long));
        keys = grow(keys, &keycap, c, sizeof(uint64_t));
        memset(count, 0, c * sizeof(long));
        memset(ref_count, 0, c * sizeof(long));
        for (size_t i = 0; i < c; i++) {
            count[ids[0][i]]++;
        }
        for (size_t j = 0; j < r; j++) {
            if (ids[1][j] >= 0) {
                ref_count[ids[1][j]]++;
            }
        }
        for (size_t v = 0; v < c; v++) {
            matches[0] += (uint64_t)(count[v] < ref_count[v] ? count[v] : ref_count[v]);
        }
        if (c > 50000) {
            fputs("floor: a line of more than 50000 tokens\n", stderr);
            return 3;
        }
        for (int n = 2; n <= ORDERS && (size_t)n <= c; n++) {
            size_t gmask = table_size(&grams, c), entries = 0;
            for (size_t i = 0; i + (size_t)n <= c; i++) {
                uint64_t key = 0;
                for (int k = 0; k < n; k++) {
                    key = key * c + (uint64_t)ids[0][i + (size_t)k];
                }
                size_t at = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 17) & gmask;
                while (grams.slot[at] >= 0 && keys[grams.slot[at]] != key) {
                    at = (at + 1) & gmask;
                }
                if (grams.slot[at] < 0) {
                    grams.slot[at] = (long)entries;
                    keys[entries] = key, count[entries] = 0, ref_count[entries] = 0;
                    entries++;
                }
                count[grams.slot[at]]++;
            }
            for (size_t j = 0; j + (size_t)n <= r; j++) {
                uint64_t key = 0;
                int absent = 0;
                for (int k = 0; k < n; k++) {
                    absent |= ids[1][j + (size_t)k] < 0;
                    key = key * c + (uint64_t)ids[1][j + (size_t)k];
                }
                if (absent) {
                    continue;
                }
                size_t at = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 17) & gmask;
                while (grams.slot[at] >= 0 && keys[grams.slot[at]] != key) {
                    at = (at + 1) & gmask;
                }
                if (grams.slot[at] >= 0) {
                    ref_count[grams.slot[at]]++;
                }
            }
            for (size_t e = 0; e < entries; e++) {
                matches[n - 1] += (uint64_t)(count[e] < ref_count[e] ? count[e] : ref_count[e]);
            }
        }
    }
    printf("matches %llu %llu %llu %llu totals %llu %llu %llu %llu c %llu r %llu\n",
           (unsigned long long)matches[0], (unsigned long long)matches[1], (unsigned long long)matches[2],
           (unsigned long long)matches[3], (unsigned long long)totals[0], (unsigned long long)totals[1],
           (unsigned long long)totals[2], (unsigned long long)totals[3], (unsigned long long)c_sum,
           (unsigned long long)r_sum);
    return 0;
}
