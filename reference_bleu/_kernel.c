/* The optional compiled kernel of NUM-FAST (spec NUM-KERNEL): clipped n-gram matches.
 *
 * clipped_matches(candidate, references, orders) -> list of `orders` ints: for n = 1..orders,
 * the sum over the candidate's distinct n-grams g of min(Count(g), max over references of
 * Count_R(g)) (BLEU-CLIP, BLEU-PREC), exactly reference_bleu.fast.clipped_matches. Tokens are
 * compared as Python compares dict keys (hash, then ==): each distinct candidate token gets a
 * small integer through a dict; a reference token absent from it cannot match and is -1.
 * Per order, the candidate's n-grams go into an open-addressing table; each reference's
 * windows are looked up in it, counted, and the per-entry maximum over references kept. A
 * higher order is not counted once an order has no match (an n-gram match contains an
 * (n-1)-gram match). The pure-Python path is this kernel's oracle (tests/test_kernel.py).
 *
 * tokens_13a(line) -> list of str: TOK-PIPELINE with TOK-13A, no case folding and Python's
 * whitespace split, exactly reference_bleu.tokenizers.fast_13a(line.rstrip()).split(). The line
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

/* Adds one segment's clipped matches of orders 1..orders to matches[0..orders): 0, or -1 with an
 * exception set. */
static int
add_clipped_matches(PyObject *candidate, PyObject *references, Py_ssize_t orders, Py_ssize_t *matches)
{
    int status = -1;
    PyObject *vocab = NULL, *refs = NULL;
    Py_ssize_t *cand = NULL, *table = NULL, *touched = NULL, **ref_ids = NULL, *ref_len = NULL;
    Entry *entries = NULL;
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
    size_t cap = 8;
    while (cap < (size_t)(2 * c + 2)) {
        cap <<= 1;
    }
    size_t mask = cap - 1;
    table = PyMem_Malloc(cap * sizeof(Py_ssize_t));
    entries = PyMem_Malloc((size_t)(c + 1) * sizeof(Entry));
    touched = PyMem_Malloc((size_t)(c + 1) * sizeof(Py_ssize_t));
    if (table == NULL || entries == NULL || touched == NULL) {
        PyErr_NoMemory();
        goto done;
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
    status = 0;
done:
    if (ref_ids != NULL) {
        for (Py_ssize_t r = 0; r < got; r++) {
            PyMem_Free(ref_ids[r]);
        }
    }
    PyMem_Free(ref_ids);
    PyMem_Free(ref_len);
    PyMem_Free(cand);
    PyMem_Free(table);
    PyMem_Free(entries);
    PyMem_Free(touched);
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

static PyObject *
tokens_13a(PyObject *module, PyObject *line)
{
    if (!PyUnicode_Check(line)) {
        PyErr_Format(PyExc_TypeError, "tokens_13a() takes a str, not %.80s", Py_TYPE(line)->tp_name);
        return NULL;
    }
    PyObject *result = NULL;
    Py_UCS4 *text = PyUnicode_AsUCS4Copy(line), *spaced = NULL;
    if (text == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(line);
    while (n > 0 && Py_UNICODE_ISSPACE(text[n - 1])) { /* str.rstrip() */
        n--;
    }
    /* Steps 1 and 2, in the order of reference_bleu.tokenizers._REPLACEMENTS_13A. */
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
        PyErr_NoMemory();
        goto done;
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
    spaced = NULL;
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
            PyErr_NoMemory();
            goto done;
        }
        n = rules[rule](text, n, spaced);
        PyMem_Free(text);
        text = spaced;
        spaced = NULL;
    }
    /* Step 8 and TOK-SPLIT: the maximal runs of non-whitespace. */
    result = PyList_New(0);
    if (result == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < n;) {
        if (Py_UNICODE_ISSPACE(text[i])) {
            i++;
            continue;
        }
        Py_ssize_t start = i;
        while (i < n && !Py_UNICODE_ISSPACE(text[i])) {
            i++;
        }
        PyObject *token = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, text + start, i - start);
        if (token == NULL || PyList_Append(result, token) < 0) {
            Py_XDECREF(token);
            Py_CLEAR(result);
            goto done;
        }
        Py_DECREF(token);
    }
done:
    PyMem_Free(text);
    PyMem_Free(spaced);
    return result;
}

static PyMethodDef methods[] = {
    {"clipped_matches", (PyCFunction)(void (*)(void))clipped_matches, METH_FASTCALL,
     "clipped_matches(candidate, references, orders) -> the clipped matches of orders 1..orders."},
    {"summed_clipped_matches", (PyCFunction)(void (*)(void))summed_clipped_matches, METH_FASTCALL,
     "summed_clipped_matches(candidates, references, orders) -> the sum of each segment's clipped matches."},
    {"tokens_13a", (PyCFunction)tokens_13a, METH_O,
     "tokens_13a(line) -> the tokens of TOK-13A without case folding: fast_13a(line.rstrip()).split()."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT, "_kernel", "The compiled kernel of NUM-FAST: counting and the 13a tokenizer (spec NUM-KERNEL).", -1, methods,
};

PyMODINIT_FUNC
PyInit__kernel(void)
{
    fill_ascii_13a();
    return PyModule_Create(&kernel_module);
}
