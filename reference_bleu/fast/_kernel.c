/* The optional compiled kernel of NUM-FAST (spec NUM-KERNEL): clipped n-gram matches.
 *
 * clipped_matches(candidate, references, orders) -> list of `orders` ints: for n = 1..orders,
 * the sum over the candidate's distinct n-grams g of min(Count(g), max over references of
 * Count_R(g)) (BLEU-CLIP, BLEU-PREC), exactly reference_bleu.fast.counts.clipped_matches. Tokens are
 * compared as Python compares dict keys (hash, then ==): each distinct candidate token gets a
 * small integer through a dict; a reference token absent from it cannot match and is -1.
 * Per order, the candidate's n-grams go into an open-addressing table; each reference's
 * windows are looked up in it, counted, and the per-entry maximum over references kept. A
 * higher order is not counted once an order has no match (an n-gram match contains an
 * (n-1)-gram match). The pure-Python path is this kernel's oracle (tests/test_kernel.py).
 *
 * tokens_13a(line) -> list of str: TOK-PIPELINE with TOK-13A, no case folding and Python's
 * whitespace split, exactly reference_bleu.text.tokenizers.fast_13a(line.rstrip()).split(). The line
 * is copied to UCS-4 code points and each step of TOK-13A is one pass over them, as the Python
 * form does it: the replacements of steps 1 and 2 (each a left-to-right str.replace, skipped
 * when none of their first characters is present), the padding, the character map of step 4
 * (" c " for each character of the class, the space included), the three two-character rules
 * of steps 5 to 7 (leftmost non-overlapping pairs, as re.sub scans), then the split (TOK-SPLIT:
 * Py_UNICODE_ISSPACE, which str.split() and str.rstrip() use). Each pass counts its output
 * first and allocates exactly, so memory is a few times the line's.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    Py_ssize_t start; /* the n-gram's first position in the candidate */
    Py_ssize_t count; /* Count(g) in the candidate */
    Py_ssize_t cur;   /* Count_R(g) in the current reference */
    Py_ssize_t best;  /* max over the references so far */
} Entry;

static uint64_t
window_hash(const Py_ssize_t *ids, Py_ssize_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        h ^= (uint64_t)ids[k] + 0x9e3779b97f4a7c15ULL;
        h *= 1099511628211ULL;
        h ^= h >> 29;
    }
    return h;
}

/* ids of a sequence's tokens: candidate tokens are added to vocab, others looked up (-1 if absent). */
static Py_ssize_t *
token_ids(PyObject *seq, PyObject *vocab, int add, Py_ssize_t *length)
{
    PyObject *fast = PySequence_Fast(seq, "a sentence must be a sequence of tokens");
    if (fast == NULL) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject **items = PySequence_Fast_ITEMS(fast);
    Py_ssize_t *ids = PyMem_Malloc((size_t)(n + 1) * sizeof(Py_ssize_t));
    if (ids == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *found = PyDict_GetItemWithError(vocab, items[i]);
        if (found != NULL) {
            ids[i] = PyLong_AsSsize_t(found);
            continue;
        }
        if (PyErr_Occurred()) {
            goto fail;
        }
        if (!add) {
            ids[i] = -1;
            continue;
        }
        Py_ssize_t next = PyDict_GET_SIZE(vocab);
        PyObject *value = PyLong_FromSsize_t(next);
        if (value == NULL || PyDict_SetItem(vocab, items[i], value) < 0) {
            Py_XDECREF(value);
            goto fail;
        }
        Py_DECREF(value);
        ids[i] = next;
    }
    Py_DECREF(fast);
    *length = n;
    return ids;
fail:
    Py_DECREF(fast);
    PyMem_Free(ids);
    return NULL;
}

static Py_ssize_t
lookup(const Py_ssize_t *table, size_t mask, const Entry *entries, const Py_ssize_t *cand,
       const Py_ssize_t *window, Py_ssize_t n, uint64_t h)
{
    size_t slot = (size_t)h & mask;
    while (table[slot] >= 0) {
        const Entry *e = &entries[table[slot]];
        if (memcmp(cand + e->start, window, (size_t)n * sizeof(Py_ssize_t)) == 0) {
            return table[slot];
        }
        slot = (slot + 1) & mask;
    }
    return -1 - (Py_ssize_t)slot; /* absent: the free slot, encoded below -1 */
}

/* Adds the clipped matches of orders 1..orders of one segment, given as token ids, to
 * matches[0..orders): the candidate's c ids (each distinct token a distinct id >= 0), each
 * reference's ids (-1: a token absent from the candidate). 0, or -1 with MemoryError set. */
static int
count_clipped(const Py_ssize_t *cand, Py_ssize_t c, Py_ssize_t *const *ref_ids, const Py_ssize_t *ref_len,
              Py_ssize_t nrefs, Py_ssize_t orders, Py_ssize_t *matches)
{
    if (c == 0 || orders == 0) {
        return 0;
    }
    size_t cap = 8;
    while (cap < (size_t)(2 * c + 2)) {
        cap <<= 1;
    }
    size_t mask = cap - 1;
    Py_ssize_t *table = PyMem_Malloc(cap * sizeof(Py_ssize_t));
    Entry *entries = PyMem_Malloc((size_t)(c + 1) * sizeof(Entry));
    Py_ssize_t *touched = PyMem_Malloc((size_t)(c + 1) * sizeof(Py_ssize_t));
    if (table == NULL || entries == NULL || touched == NULL) {
        PyMem_Free(table);
        PyMem_Free(entries);
        PyMem_Free(touched);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t n = 1; n <= orders && n <= c; n++) {
        memset(table, 0xff, cap * sizeof(Py_ssize_t)); /* every slot -1: empty */
        Py_ssize_t used = 0;
        for (Py_ssize_t i = 0; i + n <= c; i++) {
            Py_ssize_t at = lookup(table, mask, entries, cand, cand + i, n, window_hash(cand + i, n));
            if (at >= 0) {
                entries[at].count++;
            }
            else {
                table[-1 - at] = used;
                entries[used].start = i;
                entries[used].count = 1;
                entries[used].cur = 0;
                entries[used].best = 0;
                used++;
            }
        }
        for (Py_ssize_t r = 0; r < nrefs; r++) {
            const Py_ssize_t *ids = ref_ids[r];
            Py_ssize_t len = ref_len[r], ntouched = 0, clean = 0; /* clean: tokens since the last -1 */
            for (Py_ssize_t j = 0; j < len; j++) {
                clean = ids[j] < 0 ? 0 : clean + 1;
                if (clean < n) {
                    continue;
                }
                const Py_ssize_t *window = ids + j - n + 1;
                Py_ssize_t at = lookup(table, mask, entries, cand, window, n, window_hash(window, n));
                if (at >= 0 && entries[at].cur++ == 0) {
                    touched[ntouched++] = at;
                }
            }
            for (Py_ssize_t k = 0; k < ntouched; k++) {
                Entry *e = &entries[touched[k]];
                if (e->cur > e->best) {
                    e->best = e->cur;
                }
                e->cur = 0;
            }
        }
        Py_ssize_t sum = 0;
        for (Py_ssize_t k = 0; k < used; k++) {
            sum += entries[k].count < entries[k].best ? entries[k].count : entries[k].best;
        }
        matches[n - 1] += sum;
        if (sum == 0) {
            break;
        }
    }
    PyMem_Free(table);
    PyMem_Free(entries);
    PyMem_Free(touched);
    return 0;
}

/* Adds one segment's clipped matches of orders 1..orders to matches[0..orders), its tokens Python
 * objects given ids through a dict: 0, or -1 with an exception set. */
static int
add_clipped_matches(PyObject *candidate, PyObject *references, Py_ssize_t orders, Py_ssize_t *matches)
{
    int status = -1;
    PyObject *vocab = NULL, *refs = NULL;
    Py_ssize_t *cand = NULL, **ref_ids = NULL, *ref_len = NULL;
    Py_ssize_t c = 0, nrefs = 0, got = 0;
    vocab = PyDict_New();
    if (vocab == NULL) {
        goto done;
    }
    cand = token_ids(candidate, vocab, 1, &c);
    if (cand == NULL) {
        goto done;
    }
    refs = PySequence_Fast(references, "references must be a sequence of sentences");
    if (refs == NULL) {
        goto done;
    }
    nrefs = PySequence_Fast_GET_SIZE(refs);
    ref_ids = PyMem_Calloc((size_t)nrefs + 1, sizeof(Py_ssize_t *));
    ref_len = PyMem_Calloc((size_t)nrefs + 1, sizeof(Py_ssize_t));
    if (ref_ids == NULL || ref_len == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (got = 0; got < nrefs; got++) {
        ref_ids[got] = token_ids(PySequence_Fast_ITEMS(refs)[got], vocab, 0, &ref_len[got]);
        if (ref_ids[got] == NULL) {
            goto done;
        }
    }
    status = count_clipped(cand, c, ref_ids, ref_len, nrefs, orders, matches);
done:
    if (ref_ids != NULL) {
        for (Py_ssize_t r = 0; r < got; r++) {
            PyMem_Free(ref_ids[r]);
        }
    }
    PyMem_Free(ref_ids);
    PyMem_Free(ref_len);
    PyMem_Free(cand);
    Py_XDECREF(refs);
    Py_XDECREF(vocab);
    return status;
}

/* orders as a non-negative Py_ssize_t; -1 with an exception set otherwise. */
static Py_ssize_t
orders_argument(PyObject *value)
{
    Py_ssize_t orders = PyLong_AsSsize_t(value);
    if (orders < 0 && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "orders must not be negative");
    }
    return orders;
}

static PyObject *
matches_list(const Py_ssize_t *matches, Py_ssize_t orders)
{
    PyObject *result = PyList_New(orders);
    if (result == NULL) {
        return NULL;
    }
    for (Py_ssize_t n = 0; n < orders; n++) {
        PyObject *value = PyLong_FromSsize_t(matches[n]);
        if (value == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, n, value);
    }
    return result;
}

static PyObject *
clipped_matches(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "clipped_matches(candidate, references, orders)");
        return NULL;
    }
    Py_ssize_t orders = orders_argument(args[2]);
    if (orders < 0) {
        return NULL;
    }
    Py_ssize_t *matches = PyMem_Calloc((size_t)orders + 1, sizeof(Py_ssize_t));
    if (matches == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *result = add_clipped_matches(args[0], args[1], orders, matches) < 0 ? NULL
                                                                                  : matches_list(matches, orders);
    PyMem_Free(matches);
    return result;
}

/* summed_clipped_matches(candidates, references, orders): the sum over segments i of
 * clipped_matches(candidates[i], references[i], orders), without a Python call per segment. */
static PyObject *
summed_clipped_matches(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "summed_clipped_matches(candidates, references, orders)");
        return NULL;
    }
    Py_ssize_t orders = orders_argument(args[2]);
    if (orders < 0) {
        return NULL;
    }
    PyObject *result = NULL, *candidates = NULL, *references = NULL;
    Py_ssize_t *matches = PyMem_Calloc((size_t)orders + 1, sizeof(Py_ssize_t));
    if (matches == NULL) {
        return PyErr_NoMemory();
    }
    candidates = PySequence_Fast(args[0], "candidates must be a sequence of sentences");
    references = candidates == NULL ? NULL : PySequence_Fast(args[1], "references must be a sequence");
    if (references == NULL) {
        goto done;
    }
    Py_ssize_t segments = PySequence_Fast_GET_SIZE(candidates);
    if (PySequence_Fast_GET_SIZE(references) != segments) {
        PyErr_SetString(PyExc_ValueError, "one set of references per candidate");
        goto done;
    }
    for (Py_ssize_t i = 0; i < segments; i++) {
        if (add_clipped_matches(PySequence_Fast_ITEMS(candidates)[i], PySequence_Fast_ITEMS(references)[i],
                                orders, matches) < 0) {
            goto done;
        }
    }
    result = matches_list(matches, orders);
done:
    PyMem_Free(matches);
    Py_XDECREF(candidates);
    Py_XDECREF(references);
    return result;
}

/* ---- TOK-13A (tokens_13a) ------------------------------------------------------------------ */

/* Classes of the ASCII characters for TOK-13A, as bits: IN_CLASS is mteval-v13a.pl's class of
 * step 4 ({ | } ~  [ \ ] ^ _ `  space ! " # $ % &  ( ) * +  : ; < = > ? @  /), DIGIT [0-9],
 * POINT . and , (steps 5 and 6), DASH - (step 7). Other code points have none. */
enum { IN_CLASS = 1, DIGIT = 2, POINT = 4, DASH = 8 };
static unsigned char ascii_13a[128];

static void
fill_ascii_13a(void)
{
    for (int c = 0; c < 128; c++) {
        int in_class = (c >= 0x7B && c <= 0x7E) || (c >= 0x5B && c <= 0x60) || (c >= 0x20 && c <= 0x26) ||
                       (c >= 0x28 && c <= 0x2B) || (c >= 0x3A && c <= 0x40) || c == 0x2F;
        ascii_13a[c] = (unsigned char)((in_class ? IN_CLASS : 0) | (c >= '0' && c <= '9' ? DIGIT : 0) |
                                       (c == '.' || c == ',' ? POINT : 0) | (c == '-' ? DASH : 0));
    }
}

static inline int
has(Py_UCS4 c, int bits)
{
    return c < 128 && (ascii_13a[c] & bits);
}

/* One str.replace(old, new) with len(new) <= len(old), in place: the new length. */
static Py_ssize_t
replace_shrinking(Py_UCS4 *buf, Py_ssize_t n, const char *old, const char *new)
{
    Py_ssize_t olen = (Py_ssize_t)strlen(old), nlen = (Py_ssize_t)strlen(new), r = 0, w = 0;
    while (r < n) {
        Py_ssize_t k = 0;
        if (r + olen <= n) {
            while (k < olen && buf[r + k] == (Py_UCS4)(unsigned char)old[k]) {
                k++;
            }
        }
        if (r + olen <= n && k == olen) {
            for (Py_ssize_t j = 0; j < nlen; j++) {
                buf[w++] = (Py_UCS4)(unsigned char)new[j];
            }
            r += olen;
        }
        else {
            buf[w++] = buf[r++];
        }
    }
    return w;
}

/* One rule of steps 5 to 7 over in[0..n) into out: the pairs (x, y) with FIRST(x) and SECOND(y),
 * leftmost and non-overlapping as re.sub finds them, each written as SPACED; the output's length. */
#define PAIR_RULE(name, FIRST, SECOND, SPACED)                                                        \
    static Py_ssize_t name(const Py_UCS4 *in, Py_ssize_t n, Py_UCS4 *out)                           \
    {                                                                                               \
        Py_ssize_t i = 0, w = 0;                                                                    \
        while (i < n) {                                                                             \
            Py_UCS4 x = in[i];                                                                      \
            if (i + 1 < n && (FIRST) && (SECOND)) {                                                 \
                Py_UCS4 y = in[i + 1];                                                              \
                SPACED;                                                                             \
                w += 4;                                                                             \
                i += 2;                                                                             \
            }                                                                                       \
            else {                                                                                  \
                out[w++] = x;                                                                       \
                i++;                                                                                \
            }                                                                                       \
        }                                                                                           \
        return w;                                                                                   \
    }
/* s/([^0-9])([\.,])/$1 $2 /g */
PAIR_RULE(point_after, !has(x, DIGIT), has(in[i + 1], POINT),
          (out[w] = x, out[w + 1] = ' ', out[w + 2] = y, out[w + 3] = ' '))
/* s/([\.,])([^0-9])/ $1 $2/g */
PAIR_RULE(point_before, has(x, POINT), !has(in[i + 1], DIGIT),
          (out[w] = ' ', out[w + 1] = x, out[w + 2] = ' ', out[w + 3] = y))
/* s/([0-9])(-)/$1 $2 /g */
PAIR_RULE(dash_after_digit, has(x, DIGIT), in[i + 1] == '-',
          (out[w] = x, out[w + 1] = ' ', out[w + 2] = y, out[w + 3] = ' '))

/* TOK-13A's steps 1 to 7 on str.rstrip() of a str `line`: a fresh buffer (PyMem) of *length code
 * points whose maximal runs of non-whitespace are the tokens; NULL with an exception set. */
static Py_UCS4 *
spaced_13a(PyObject *line, Py_ssize_t *length)
{
    if (!PyUnicode_Check(line)) {
        PyErr_Format(PyExc_TypeError, "a line must be a str, not %.80s", Py_TYPE(line)->tp_name);
        return NULL;
    }
    Py_UCS4 *text = PyUnicode_AsUCS4Copy(line), *spaced = NULL;
    if (text == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(line);
    while (n > 0 && Py_UNICODE_ISSPACE(text[n - 1])) { /* str.rstrip() */
        n--;
    }
    /* Steps 1 and 2, in the order of reference_bleu.text.tokenizers._REPLACEMENTS_13A. */
    int escaped = 0;
    for (Py_ssize_t i = 0; i < n && !escaped; i++) {
        escaped = text[i] == '<' || text[i] == '&' || text[i] == '\n';
    }
    if (escaped) {
        static const char *const replacements[][2] = {
            {"<skipped>", ""}, {"-\n", ""}, {"\n", " "}, {"&quot;", "\""},
            {"&amp;", "&"},    {"&lt;", "<"}, {"&gt;", ">"},
        };
        for (size_t k = 0; k < sizeof(replacements) / sizeof(replacements[0]); k++) {
            n = replace_shrinking(text, n, replacements[k][0], replacements[k][1]);
        }
    }
    /* Step 3, the padding, and step 4, the character map. */
    Py_ssize_t size = n + 6; /* the two padding spaces are in the class: three characters each */
    Py_ssize_t points = 0, dashes = 0; /* each pair of steps 5 to 7 holds one: 2 more characters */
    for (Py_ssize_t i = 0; i < n; i++) {
        if (text[i] < 128) {
            size += ascii_13a[text[i]] & IN_CLASS ? 2 : 0;
            points += (ascii_13a[text[i]] & POINT) != 0;
            dashes += text[i] == '-';
        }
    }
    spaced = PyMem_Malloc((size_t)size * sizeof(Py_UCS4));
    if (spaced == NULL) {
        PyMem_Free(text);
        PyErr_NoMemory();
        return NULL;
    }
    Py_ssize_t w = 0;
    spaced[w++] = ' ', spaced[w++] = ' ', spaced[w++] = ' ';
    for (Py_ssize_t i = 0; i < n; i++) {
        if (has(text[i], IN_CLASS)) {
            spaced[w++] = ' ', spaced[w++] = text[i], spaced[w++] = ' ';
        }
        else {
            spaced[w++] = text[i];
        }
    }
    spaced[w++] = ' ', spaced[w++] = ' ', spaced[w++] = ' ';
    PyMem_Free(text);
    text = spaced;
    n = w;
    /* Steps 5 to 7, each rule on the previous one's output (inserted spaces are none of . , -). */
    Py_ssize_t (*const rules[3])(const Py_UCS4 *, Py_ssize_t, Py_UCS4 *) = {
        point_after, point_before, dash_after_digit};
    for (int rule = 0; rule < 3; rule++) {
        Py_ssize_t pairs = rule == 2 ? dashes : points;
        if (pairs == 0) {
            continue; /* no pair can match: the same string */
        }
        spaced = PyMem_Malloc((size_t)(n + 2 * pairs) * sizeof(Py_UCS4));
        if (spaced == NULL) {
            PyMem_Free(text);
            PyErr_NoMemory();
            return NULL;
        }
        n = rules[rule](text, n, spaced);
        PyMem_Free(text);
        text = spaced;
    }
    *length = n;
    return text;
}

/* Step 8 and TOK-SPLIT: the next maximal run of non-whitespace in text[*at..n) as [*start, *at);
 * 0 when there is none. */
static inline int
next_token(const Py_UCS4 *text, Py_ssize_t n, Py_ssize_t *at, Py_ssize_t *start)
{
    Py_ssize_t i = *at;
    while (i < n && Py_UNICODE_ISSPACE(text[i])) {
        i++;
    }
    if (i == n) {
        *at = i;
        return 0;
    }
    *start = i;
    while (i < n && !Py_UNICODE_ISSPACE(text[i])) {
        i++;
    }
    *at = i;
    return 1;
}

static PyObject *
tokens_13a(PyObject *module, PyObject *line)
{
    if (!PyUnicode_Check(line)) {
        PyErr_Format(PyExc_TypeError, "tokens_13a() takes a str, not %.80s", Py_TYPE(line)->tp_name);
        return NULL;
    }
    Py_ssize_t n = 0, at = 0, start = 0;
    Py_UCS4 *text = spaced_13a(line, &n);
    if (text == NULL) {
        return NULL;
    }
    PyObject *result = PyList_New(0);
    while (result != NULL && next_token(text, n, &at, &start)) {
        PyObject *token = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, text + start, at - start);
        if (token == NULL || PyList_Append(result, token) < 0) {
            Py_CLEAR(result);
        }
        Py_XDECREF(token);
    }
    PyMem_Free(text);
    return result;
}

/* ---- 13a and counting in one call (counts_13a) ------------------------------------------------ */

/* One cell of a row tokenized by TOK-13A: its spaced text and its tokens as spans of it. */
typedef struct {
    Py_UCS4 *text;
    Py_ssize_t *start, *len; /* token k is text[start[k] .. start[k] + len[k]) */
    Py_ssize_t count;        /* the number of tokens */
    Py_ssize_t *ids;         /* token ids for counting (count_clipped) */
} Cell;

static void
free_cell(Cell *cell)
{
    PyMem_Free(cell->text);
    PyMem_Free(cell->start);
    PyMem_Free(cell->len);
    PyMem_Free(cell->ids);
    memset(cell, 0, sizeof(Cell));
}

/* Tokenizes `line` into the empty `cell`: 0, or -1 with an exception set. */
static int
tokenize_cell(PyObject *line, Cell *cell)
{
    Py_ssize_t n = 0, at = 0, start = 0, count = 0;
    cell->text = spaced_13a(line, &n);
    if (cell->text == NULL) {
        return -1;
    }
    Py_ssize_t most = n / 2 + 1; /* tokens are separated by whitespace */
    cell->start = PyMem_Malloc((size_t)most * sizeof(Py_ssize_t));
    cell->len = PyMem_Malloc((size_t)most * sizeof(Py_ssize_t));
    cell->ids = PyMem_Malloc((size_t)most * sizeof(Py_ssize_t));
    if (cell->start == NULL || cell->len == NULL || cell->ids == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    while (next_token(cell->text, n, &at, &start)) {
        cell->start[count] = start;
        cell->len[count] = at - start;
        count++;
    }
    cell->count = count;
    return 0;
}

static uint64_t
span_hash(const Py_UCS4 *text, Py_ssize_t len)
{
    uint64_t h = 1469598103934665603ULL;
    for (Py_ssize_t k = 0; k < len; k++) {
        h ^= text[k];
        h *= 1099511628211ULL;
    }
    return h ^ (h >> 31);
}

/* Token ids as add_clipped_matches's dict gives them, by code points instead of str objects (two
 * tokens are the same id exactly when they are equal strings): the candidate's distinct tokens
 * numbered in order of first occurrence, each reference token the id of the equal candidate
 * token or -1. `table` has `mask + 1` slots (more than twice the candidate's tokens). */
static void
span_ids(Cell *candidate, Cell *const *references, Py_ssize_t nrefs, Py_ssize_t *table, size_t mask)
{
    memset(table, 0xff, (mask + 1) * sizeof(Py_ssize_t)); /* -1: empty; else a candidate token index */
    Py_ssize_t next = 0;
    for (Py_ssize_t r = -1; r < nrefs; r++) {
        Cell *cell = r < 0 ? candidate : references[r];
        for (Py_ssize_t k = 0; k < cell->count; k++) {
            const Py_UCS4 *token = cell->text + cell->start[k];
            Py_ssize_t len = cell->len[k];
            size_t slot = (size_t)span_hash(token, len) & mask;
            Py_ssize_t id = -1;
            while (table[slot] >= 0) {
                Py_ssize_t j = table[slot]; /* a candidate token with this id's first occurrence */
                if (candidate->len[j] == len &&
                    memcmp(candidate->text + candidate->start[j], token, (size_t)len * sizeof(Py_UCS4)) == 0) {
                    id = candidate->ids[j];
                    break;
                }
                slot = (slot + 1) & mask;
            }
            if (id < 0 && r < 0) {
                table[slot] = k;
                id = next++;
            }
            cell->ids[k] = id;
        }
    }
}

/* counts_13a(rows, systems, orders) -> (matches, lengths). Each row is a sequence of `systems`
 * candidate lines, then at least one reference line, every row with as many; each line goes
 * through TOK-PIPELINE with TOK-13A (tokens_13a's tokens, never made into str objects). matches[k]
 * is the sum over rows of clipped_matches(candidate k, references, orders); lengths is bytes of
 * native long long (memoryview(lengths).cast("q")), row by row each cell's number of tokens. */
static PyObject *
counts_13a(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "counts_13a(rows, systems, orders)");
        return NULL;
    }
    Py_ssize_t systems = PyLong_AsSsize_t(args[1]);
    if (systems < 1) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "systems must be at least 1");
        }
        return NULL;
    }
    Py_ssize_t orders = orders_argument(args[2]);
    if (orders < 0) {
        return NULL;
    }
    PyObject *rows = PySequence_Fast(args[0], "rows must be a sequence of rows"), *result = NULL;
    if (rows == NULL) {
        return NULL;
    }
    Py_ssize_t nrows = PySequence_Fast_GET_SIZE(rows), cells = -1, table_size = 0;
    Py_ssize_t *matches = PyMem_Calloc((size_t)(systems * orders + 1), sizeof(Py_ssize_t)), *table = NULL;
    Cell *row_cells = NULL;
    Cell **refs = NULL;
    Py_ssize_t **ref_ids = NULL, *ref_len = NULL; /* the references' ids and lengths for count_clipped */
    PyObject *lengths = NULL;
    long long *length = NULL;
    if (matches == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nrows; i++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_ITEMS(rows)[i], "a row must be a sequence of lines");
        if (row == NULL) {
            goto done;
        }
        Py_ssize_t size = PySequence_Fast_GET_SIZE(row);
        if (cells < 0) {
            cells = size;
            if (cells <= systems) {
                PyErr_SetString(PyExc_ValueError, "a row needs its systems' lines and at least one reference");
            }
            else if (nrows > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(long long) / cells) {
                PyErr_NoMemory();
            }
            else {
                lengths = PyBytes_FromStringAndSize(NULL, nrows * cells * (Py_ssize_t)sizeof(long long));
                row_cells = PyMem_Calloc((size_t)cells, sizeof(Cell));
                refs = PyMem_Calloc((size_t)cells, sizeof(Cell *));
                ref_ids = PyMem_Calloc((size_t)cells, sizeof(Py_ssize_t *));
                ref_len = PyMem_Calloc((size_t)cells, sizeof(Py_ssize_t));
                if (lengths != NULL && (row_cells == NULL || refs == NULL || ref_ids == NULL || ref_len == NULL)) {
                    PyErr_NoMemory();
                }
            }
            if (PyErr_Occurred()) {
                Py_DECREF(row);
                goto done;
            }
            length = (long long *)PyBytes_AS_STRING(lengths);
        }
        else if (size != cells) {
            PyErr_SetString(PyExc_ValueError, "every row must have as many lines");
            Py_DECREF(row);
            goto done;
        }
        int failed = 0;
        for (Py_ssize_t k = 0; k < cells && !failed; k++) {
            failed = tokenize_cell(PySequence_Fast_ITEMS(row)[k], &row_cells[k]) < 0;
        }
        Py_DECREF(row);
        for (Py_ssize_t k = systems; k < cells && !failed; k++) {
            refs[k - systems] = &row_cells[k];
        }
        for (Py_ssize_t k = 0; k < systems && !failed; k++) {
            Cell *candidate = &row_cells[k];
            if (candidate->count == 0 || orders == 0) {
                continue;
            }
            Py_ssize_t slots = 8; /* this candidate's table: a prefix of the largest one allocated */
            while (slots < 2 * candidate->count + 2) {
                slots <<= 1;
            }
            if (table_size < slots) {
                PyMem_Free(table);
                table = PyMem_Malloc((size_t)slots * sizeof(Py_ssize_t));
                table_size = table == NULL ? 0 : slots;
                if (table == NULL) {
                    PyErr_NoMemory();
                    failed = 1;
                    break;
                }
            }
            span_ids(candidate, refs, cells - systems, table, (size_t)slots - 1);
            for (Py_ssize_t r = 0; r < cells - systems; r++) {
                ref_ids[r] = refs[r]->ids;
                ref_len[r] = refs[r]->count;
            }
            failed = count_clipped(candidate->ids, candidate->count, ref_ids, ref_len, cells - systems, orders,
                                   matches + k * orders) < 0;
        }
        for (Py_ssize_t k = 0; k < cells; k++) {
            length[i * cells + k] = (long long)row_cells[k].count;
            free_cell(&row_cells[k]);
        }
        if (failed) {
            goto done;
        }
    }
    if (lengths == NULL) {
        lengths = PyBytes_FromStringAndSize(NULL, 0);
        if (lengths == NULL) {
            goto done;
        }
    }
    PyObject *per_system = PyList_New(systems);
    if (per_system == NULL) {
        goto done;
    }
    for (Py_ssize_t k = 0; k < systems; k++) {
        PyObject *list = matches_list(matches + k * orders, orders);
        if (list == NULL) {
            Py_DECREF(per_system);
            goto done;
        }
        PyList_SET_ITEM(per_system, k, list);
    }
    result = PyTuple_Pack(2, per_system, lengths);
    Py_DECREF(per_system);
done:
    if (row_cells != NULL) {
        for (Py_ssize_t k = 0; k < cells; k++) {
            free_cell(&row_cells[k]);
        }
    }
    PyMem_Free(row_cells);
    PyMem_Free(refs);
    PyMem_Free(ref_ids);
    PyMem_Free(ref_len);
    PyMem_Free(table);
    PyMem_Free(matches);
    Py_XDECREF(lengths);
    Py_DECREF(rows);
    return result;
}

static PyMethodDef methods[] = {
    {"clipped_matches", (PyCFunction)(void (*)(void))clipped_matches, METH_FASTCALL,
     "clipped_matches(candidate, references, orders) -> the clipped matches of orders 1..orders."},
    {"summed_clipped_matches", (PyCFunction)(void (*)(void))summed_clipped_matches, METH_FASTCALL,
     "summed_clipped_matches(candidates, references, orders) -> the sum of each segment's clipped matches."},
    {"counts_13a", (PyCFunction)(void (*)(void))counts_13a, METH_FASTCALL,
     "counts_13a(rows, systems, orders) -> (each system's summed clipped matches, each cell's token count)."},
    {"tokens_13a", (PyCFunction)tokens_13a, METH_O,
     "tokens_13a(line) -> the tokens of TOK-13A without case folding: fast_13a(line.rstrip()).split()."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT, "reference_bleu.fast._kernel", "The compiled kernel of NUM-FAST: counting and the 13a tokenizer (spec NUM-KERNEL).", -1, methods,
};

PyMODINIT_FUNC
PyInit__kernel(void)
{
    fill_ascii_13a();
    return PyModule_Create(&kernel_module);
}
