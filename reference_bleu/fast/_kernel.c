/* The optional compiled kernel of NUM-FAST (spec NUM-KERNEL): clipped n-gram matches, the tokenizers
 * of chapter 11 on code points, and lines of text tokenized and counted in one call.
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
 * tokens(line, tokenizer) -> list of str: TOK-PIPELINE with the tokenizer (TOKENIZERS[tokenizer]:
 * none, 13a, intl, zh, char), no case folding and Python's whitespace split, exactly
 * reference_bleu.text.tokenizers.tokenizer(name)(line.rstrip()).split(). The line's code points are
 * copied once (UCS-4) and go through one pass: each rule of the tokenizer is a stage that holds
 * back one character, so a two-character rule sees the pairs its regular expression sees in the
 * previous rule's output, leftmost and non-overlapping as re.sub scans them, and writes its
 * replacement on into the next stage; the last stage splits on whitespace (Py_UNICODE_ISSPACE, which
 * str.split() and str.rstrip() use). Every character a rule inserts is a space, so each token is a
 * run of the line's own code points: a span, never a new string until Python asks for one.
 * TOK-13A: the replacements of steps 1 and 2 (each a left-to-right str.replace, in their order;
 * only when a '<', '&' or line feed is present), then the padding and the character map of steps
 * 3 and 4 (" c " for each character of the class), the rules of steps 5, 6 and 7. TOK-ZH: str.strip(),
 * " c " around each character of its ranges, 13a's steps 4 to 7 without padding. TOK-INTL: its
 * three passes by Unicode general category (N, P, S), read from Python's unicodedata.category on a
 * code point's first sight and remembered. TOK-CHAR: every non-space code point a token. TOK-NONE:
 * the split alone.
 *
 * counts_rows(rows, systems, orders, tokenizer) -> (matches, lengths): rows of text (each its
 * systems' lines, then its references), tokenized and counted without a str per token: each
 * system's summed clipped matches, and every line's number of tokens as native long long bytes.
 * counts_lines(buffers, systems, orders, tokenizer) does the same for lines given as blocks:
 * buffers[k] (bytes of UTF-8, or str) holds file k's lines, each ended by "\n", every buffer as
 * many; bytes are decoded here as strictly as Python's UTF-8 decoder, and the first line that is
 * not valid UTF-8 ends the call (its row and file are returned; Python words the error).
 * skip_lines(buffer, start, count) and long_line(buffer, limit) find line ends in a block.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* ---- growable scratch memory ------------------------------------------------------------------ */

/* *data holds at least `need` items of `size` bytes: 0, or -1 with MemoryError set. */
static int
reserve(void **data, Py_ssize_t *cap, Py_ssize_t need, size_t size)
{
    if (*cap >= need) {
        return 0;
    }
    Py_ssize_t grown = *cap > 16 ? *cap : 16;
    while (grown < need) {
        if (grown > PY_SSIZE_T_MAX / 2 / (Py_ssize_t)size) {
            PyErr_NoMemory();
            return -1;
        }
        grown *= 2;
    }
    void *memory = PyMem_Realloc(*data, (size_t)grown * size);
    if (memory == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *data = memory;
    *cap = grown;
    return 0;
}

#define RESERVE(data, cap, need) reserve((void **)&(data), &(cap), (need), sizeof(*(data)))

/* ---- clipped matches ---------------------------------------------------------------------------- */

typedef struct {
    Py_ssize_t start; /* the n-gram's first position in the candidate */
    Py_ssize_t count; /* Count(g) in the candidate */
    Py_ssize_t cur;   /* Count_R(g) in the current reference */
    Py_ssize_t best;  /* max over the references so far */
} Entry;

/* The tables of count_clipped, kept from one segment to the next. */
typedef struct {
    Py_ssize_t *table, *touched;
    Entry *entries;
    Py_ssize_t table_cap, touched_cap, entries_cap;
} Counter;

static void
free_counter(Counter *counter)
{
    PyMem_Free(counter->table);
    PyMem_Free(counter->touched);
    PyMem_Free(counter->entries);
    memset(counter, 0, sizeof(Counter));
}

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

/* The clipped matches of order n >= 2 by window keys: each window of n ids packed into one integer
 * key = Σ id_k · V^(n-1-k) (V distinct candidate ids, V^n < 2^62, so two windows have the same key
 * exactly when they are the same ids), counted in an open-addressing table of keys. */
typedef struct {
    uint64_t key;
    Py_ssize_t count, cur, best;
} KeyEntry;

/* KeyEntry and Entry share the counter's entries. */
_Static_assert(sizeof(KeyEntry) == sizeof(Entry), "KeyEntry and Entry share memory");

static Py_ssize_t
key_slot(const Py_ssize_t *table, const KeyEntry *entries, size_t mask, uint64_t key)
{
    size_t slot = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 17) & mask;
    while (table[slot] >= 0 && entries[table[slot]].key != key) {
        slot = (slot + 1) & mask;
    }
    return (Py_ssize_t)slot;
}

static inline uint64_t
window_key(const Py_ssize_t *ids, Py_ssize_t n, uint64_t base)
{
    uint64_t key = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        key = key * base + (uint64_t)ids[k];
    }
    return key;
}

/* Adds the clipped matches of orders 1..orders of one segment, given as token ids, to
 * matches[0..orders): the candidate's c ids (its distinct tokens numbered 0, 1, ... in order of
 * first occurrence), each reference's ids (-1: a token absent from the candidate). Unigrams are
 * counted in arrays indexed by id; higher orders by window keys where V^n fits (else by windows
 * compared id by id). 0, or -1 with MemoryError set. */
static int
count_clipped(Counter *counter, const Py_ssize_t *cand, Py_ssize_t c, Py_ssize_t *const *ref_ids,
              const Py_ssize_t *ref_len, Py_ssize_t nrefs, Py_ssize_t orders, Py_ssize_t *matches)
{
    if (c == 0 || orders == 0) {
        return 0;
    }
    Py_ssize_t distinct = 0;
    for (Py_ssize_t i = 0; i < c; i++) {
        if (cand[i] >= distinct) {
            distinct = cand[i] + 1;
        }
    }
    Py_ssize_t cap = 8;
    while (cap < 2 * c + 2) {
        cap <<= 1;
    }
    if (RESERVE(counter->table, counter->table_cap, cap) < 0 ||
        RESERVE(counter->entries, counter->entries_cap, c + 1) < 0 ||
        RESERVE(counter->touched, counter->touched_cap, 3 * (c + 1)) < 0) {
        return -1;
    }
    /* Order 1: per id, the count in the candidate, the count in the current reference, the best. */
    Py_ssize_t *count = counter->touched, *cur = count + distinct, *best = cur + distinct;
    memset(count, 0, (size_t)(3 * distinct) * sizeof(Py_ssize_t));
    for (Py_ssize_t i = 0; i < c; i++) {
        count[cand[i]]++;
    }
    for (Py_ssize_t r = 0; r < nrefs; r++) {
        for (Py_ssize_t j = 0; j < ref_len[r]; j++) {
            if (ref_ids[r][j] >= 0) {
                cur[ref_ids[r][j]]++;
            }
        }
        for (Py_ssize_t v = 0; v < distinct; v++) {
            if (cur[v] > best[v]) {
                best[v] = cur[v];
            }
            cur[v] = 0;
        }
    }
    Py_ssize_t sum = 0;
    for (Py_ssize_t v = 0; v < distinct; v++) {
        sum += count[v] < best[v] ? count[v] : best[v];
    }
    matches[0] += sum;
    if (sum == 0) {
        return 0;
    }
    Py_ssize_t *table = counter->table, *touched = counter->touched;
    Entry *entries = counter->entries;
    KeyEntry *keyed = (KeyEntry *)counter->entries; /* the same memory, one layout or the other */
    size_t mask = (size_t)cap - 1;
    for (Py_ssize_t n = 2; n <= orders && n <= c; n++) {
        memset(table, 0xff, (size_t)cap * sizeof(Py_ssize_t)); /* every slot -1: empty */
        int packed = 1;
        uint64_t power = 1;
        for (Py_ssize_t k = 0; k < n && packed; k++) {
            packed = power <= (UINT64_C(1) << 62) / (uint64_t)distinct;
            power *= (uint64_t)distinct;
        }
        Py_ssize_t used = 0;
        for (Py_ssize_t i = 0; i + n <= c; i++) {
            if (packed) {
                uint64_t key = window_key(cand + i, n, (uint64_t)distinct);
                Py_ssize_t slot = key_slot(table, keyed, mask, key);
                if (table[slot] >= 0) {
                    keyed[table[slot]].count++;
                }
                else {
                    table[slot] = used;
                    keyed[used].key = key, keyed[used].count = 1, keyed[used].cur = 0, keyed[used].best = 0;
                    used++;
                }
                continue;
            }
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
                Py_ssize_t at;
                if (packed) {
                    Py_ssize_t slot = key_slot(table, keyed, mask, window_key(window, n, (uint64_t)distinct));
                    at = table[slot];
                    if (at >= 0 && keyed[at].cur++ == 0) {
                        touched[ntouched++] = at;
                    }
                    continue;
                }
                at = lookup(table, mask, entries, cand, window, n, window_hash(window, n));
                if (at >= 0 && entries[at].cur++ == 0) {
                    touched[ntouched++] = at;
                }
            }
            for (Py_ssize_t k = 0; k < ntouched; k++) {
                Py_ssize_t *e_cur = packed ? &keyed[touched[k]].cur : &entries[touched[k]].cur;
                Py_ssize_t *e_best = packed ? &keyed[touched[k]].best : &entries[touched[k]].best;
                if (*e_cur > *e_best) {
                    *e_best = *e_cur;
                }
                *e_cur = 0;
            }
        }
        sum = 0;
        for (Py_ssize_t k = 0; k < used; k++) {
            Py_ssize_t e_count = packed ? keyed[k].count : entries[k].count;
            Py_ssize_t e_best = packed ? keyed[k].best : entries[k].best;
            sum += e_count < e_best ? e_count : e_best;
        }
        matches[n - 1] += sum;
        if (sum == 0) {
            break;
        }
    }
    return 0;
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

/* Adds one segment's clipped matches of orders 1..orders to matches[0..orders), its tokens Python
 * objects given ids through a dict: 0, or -1 with an exception set. */
static int
add_clipped_matches(Counter *counter, PyObject *candidate, PyObject *references, Py_ssize_t orders,
                    Py_ssize_t *matches)
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
    status = count_clipped(counter, cand, c, ref_ids, ref_len, nrefs, orders, matches);
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

/* A non-negative Py_ssize_t argument called `what`; -1 with an exception set otherwise. */
static Py_ssize_t
count_argument(PyObject *value, const char *what)
{
    Py_ssize_t count = PyLong_AsSsize_t(value);
    if (count < 0 && !PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError, "%s must not be negative", what);
    }
    return count;
}

static PyObject *
int_list(const Py_ssize_t *values, Py_ssize_t count)
{
    PyObject *result = PyList_New(count);
    if (result == NULL) {
        return NULL;
    }
    for (Py_ssize_t n = 0; n < count; n++) {
        PyObject *value = PyLong_FromSsize_t(values[n]);
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
    Py_ssize_t orders = count_argument(args[2], "orders");
    if (orders < 0) {
        return NULL;
    }
    Py_ssize_t *matches = PyMem_Calloc((size_t)orders + 1, sizeof(Py_ssize_t));
    if (matches == NULL) {
        return PyErr_NoMemory();
    }
    Counter counter = {0};
    PyObject *result =
        add_clipped_matches(&counter, args[0], args[1], orders, matches) < 0 ? NULL : int_list(matches, orders);
    free_counter(&counter);
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
    Py_ssize_t orders = count_argument(args[2], "orders");
    if (orders < 0) {
        return NULL;
    }
    PyObject *result = NULL, *candidates = NULL, *references = NULL;
    Counter counter = {0};
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
        if (add_clipped_matches(&counter, PySequence_Fast_ITEMS(candidates)[i],
                                PySequence_Fast_ITEMS(references)[i], orders, matches) < 0) {
            goto done;
        }
    }
    result = int_list(matches, orders);
done:
    free_counter(&counter);
    PyMem_Free(matches);
    Py_XDECREF(candidates);
    Py_XDECREF(references);
    return result;
}

/* ---- the tokenizers of chapter 11 on code points ------------------------------------------------ */

/* The order of the module's TOKENIZERS: a tokenizer's number is its index there. */
enum { TOK_NONE, TOK_13A, TOK_INTL, TOK_ZH, TOK_CHAR, TOKENIZER_COUNT };
static const char *const tokenizer_names[TOKENIZER_COUNT] = {"none", "13a", "intl", "zh", "char"};

/* Classes of the ASCII characters, as bits: IN_CLASS is mteval-v13a.pl's class of step 4
 * ({ | } ~  [ \ ] ^ _ `  space ! " # $ % &  ( ) * +  : ; < = > ? @  /), DIGIT [0-9], POINT . and ,
 * (steps 5 and 6), SPACE Python's whitespace below 128 (\t \n \v \f \r, U+001C..U+001F, space). */
enum { IN_CLASS = 1, DIGIT = 2, POINT = 4, SPACE = 8 };
static unsigned char ascii_class[128];

static void
fill_ascii_class(void)
{
    for (int c = 0; c < 128; c++) {
        int in_class = (c >= 0x7B && c <= 0x7E) || (c >= 0x5B && c <= 0x60) || (c >= 0x20 && c <= 0x26) ||
                       (c >= 0x28 && c <= 0x2B) || (c >= 0x3A && c <= 0x40) || c == 0x2F;
        int space = (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20);
        ascii_class[c] = (unsigned char)((in_class ? IN_CLASS : 0) | (c >= '0' && c <= '9' ? DIGIT : 0) |
                                         (c == '.' || c == ',' ? POINT : 0) | (space ? SPACE : 0));
    }
}

/* 1 for the ASCII characters TOK-13A's steps 1 and 2 start with: '<', '&' and the line feed. */
static const unsigned char escapes[128] = {['<'] = 1, ['&'] = 1, ['\n'] = 1};

static inline int
has(Py_UCS4 c, int bits)
{
    return c < 128 && (ascii_class[c] & bits);
}

static inline int
is_space(Py_UCS4 c)
{
    return c < 128 ? (ascii_class[c] & SPACE) != 0 : Py_UNICODE_ISSPACE(c);
}

/* TOK-ZH's ranges as sacrebleu 2.6.0 compares them (reference_bleu.text.tokenizers.ZH_RANGES). */
static const Py_UCS4 zh_ranges[][2] = {
    {0x3400, 0x4DB5}, {0x4E00, 0x9FA5}, {0x9FA6, 0x9FBB}, {0xF900, 0xFA2D}, {0xFA30, 0xFA6A},
    {0xFA70, 0xFAD9}, {0x2001, 0x2A6D}, {0x2F81, 0x2FA1}, {0xFF00, 0xFFEF}, {0x2E80, 0x2EFF},
    {0x3000, 0x303F}, {0x31C0, 0x31EF}, {0x2F00, 0x2FDF}, {0x2FF0, 0x2FFF}, {0x3100, 0x312F},
    {0x31A0, 0x31BF}, {0xFE10, 0xFE1F}, {0xFE30, 0xFE4F}, {0x2600, 0x26FF}, {0x2700, 0x27BF},
    {0x3200, 0x32FF}, {0x3300, 0x33FF},
};

static int
is_zh(Py_UCS4 c)
{
    if (c < 0x2001) {
        return 0;
    }
    for (size_t k = 0; k < sizeof(zh_ranges) / sizeof(zh_ranges[0]); k++) {
        if (zh_ranges[k][0] <= c && c <= zh_ranges[k][1]) {
            return 1;
        }
    }
    return 0;
}

/* TOK-INTL's classes: each code point's general category's major class, N, P, S or other, as
 * unicodedata.category gives it in this process, looked up on first sight and remembered. */
enum { KIND_UNKNOWN, KIND_OTHER, KIND_N, KIND_P, KIND_S };
static unsigned char *intl_kinds; /* 0x110000 entries, allocated on first use */
static PyObject *category_function;

static int
intl_kind(Py_UCS4 c)
{
    if (intl_kinds[c] != KIND_UNKNOWN) {
        return intl_kinds[c];
    }
    PyObject *character = PyUnicode_FromOrdinal((int)c);
    PyObject *category = character == NULL ? NULL : PyObject_CallOneArg(category_function, character);
    Py_XDECREF(character);
    if (category == NULL) {
        return -1;
    }
    int kind = KIND_OTHER;
    if (PyUnicode_Check(category) && PyUnicode_GET_LENGTH(category) > 0) {
        Py_UCS4 major = PyUnicode_READ_CHAR(category, 0);
        kind = major == 'N' ? KIND_N : major == 'P' ? KIND_P : major == 'S' ? KIND_S : KIND_OTHER;
    }
    Py_DECREF(category);
    intl_kinds[c] = (unsigned char)kind;
    return kind;
}

static int
load_intl_kinds(void)
{
    if (intl_kinds != NULL) {
        return 0;
    }
    PyObject *unicodedata = PyImport_ImportModule("unicodedata");
    if (unicodedata == NULL) {
        return -1;
    }
    category_function = PyObject_GetAttrString(unicodedata, "category");
    Py_DECREF(unicodedata);
    if (category_function == NULL) {
        return -1;
    }
    intl_kinds = PyMem_Calloc(0x110000, 1);
    if (intl_kinds == NULL) {
        Py_CLEAR(category_function);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* One line: its code points (a tokenizer may rewrite them in place) and its tokens as spans of them. */
typedef struct {
    Py_UCS4 *text;
    Py_ssize_t n, text_cap;
    int escaped; /* the text holds a '<', '&' or line feed (TOK-13A's steps 1 and 2 may apply) */
    Py_ssize_t *start, *len, *ids; /* token k is text[start[k] .. start[k] + len[k]) */
    Py_ssize_t count, token_cap;
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

/* Room for `need` tokens in each of the cell's three token arrays: 0, or -1 with MemoryError set. */
static int
reserve_tokens(Cell *cell, Py_ssize_t need)
{
    if (cell->token_cap >= need) {
        return 0;
    }
    Py_ssize_t cap = cell->token_cap, start_cap = cap, len_cap = cap;
    if (RESERVE(cell->start, start_cap, need) < 0 || RESERVE(cell->len, len_cap, need) < 0 ||
        RESERVE(cell->ids, cap, need) < 0) {
        return -1;
    }
    cell->token_cap = cap; /* the three grow alike: the same capacity */
    return 0;
}

/* The code points of a str (or of its code points [from, to)) into cell->text: 0, or -1. */
static int
load_str(Cell *cell, PyObject *text, Py_ssize_t from, Py_ssize_t to)
{
    Py_ssize_t n = to - from;
    if (RESERVE(cell->text, cell->text_cap, n + 1) < 0) {
        return -1;
    }
    int kind = PyUnicode_KIND(text), escaped = 0;
    const void *data = PyUnicode_DATA(text);
    Py_UCS4 *out = cell->text;
    if (kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *s = (const Py_UCS1 *)data + from;
        for (Py_ssize_t i = 0; i < n; i++) {
            out[i] = s[i];
            escaped |= escapes[s[i] & 0x7F] & (s[i] < 0x80);
        }
    }
    else if (kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *s = (const Py_UCS2 *)data + from;
        for (Py_ssize_t i = 0; i < n; i++) {
            out[i] = s[i];
            escaped |= escapes[s[i] & 0x7F] & (s[i] < 0x80);
        }
    }
    else {
        const Py_UCS4 *s = (const Py_UCS4 *)data + from;
        for (Py_ssize_t i = 0; i < n; i++) {
            out[i] = s[i];
            escaped |= escapes[s[i] & 0x7F] & (s[i] < 0x80);
        }
    }
    cell->n = n;
    cell->escaped = escaped;
    return 0;
}

/* UTF-8 bytes s[0..n) into cell->text, as strictly as Python's decoder (no overlong forms, no
 * surrogates, nothing above U+10FFFF): 0; 1 when they are not valid UTF-8; -1 with an exception. */
static int
load_utf8(Cell *cell, const unsigned char *s, Py_ssize_t n)
{
    if (RESERVE(cell->text, cell->text_cap, n + 1) < 0) {
        return -1;
    }
    Py_UCS4 *out = cell->text;
    Py_ssize_t i = 0, w = 0;
    int escaped = 0;
    while (i < n) {
        unsigned int c = s[i];
        if (c < 0x80) {
            out[w++] = c;
            escaped |= escapes[c];
            i++;
            continue;
        }
        Py_ssize_t len;
        Py_UCS4 value;
        unsigned int low = 0x80, high = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2, value = c & 0x1F;
        }
        else if (c >= 0xE0 && c <= 0xEF) {
            len = 3, value = c & 0x0F;
            low = c == 0xE0 ? 0xA0 : 0x80;
            high = c == 0xED ? 0x9F : 0xBF;
        }
        else if (c >= 0xF0 && c <= 0xF4) {
            len = 4, value = c & 0x07;
            low = c == 0xF0 ? 0x90 : 0x80;
            high = c == 0xF4 ? 0x8F : 0xBF;
        }
        else {
            return 1;
        }
        if (i + len > n || s[i + 1] < low || s[i + 1] > high) {
            return 1;
        }
        for (Py_ssize_t k = 1; k < len; k++) {
            unsigned int next = s[i + k];
            if (k > 1 && (next < 0x80 || next > 0xBF)) {
                return 1;
            }
            value = (value << 6) | (next & 0x3F);
        }
        out[w++] = value;
        i += len;
    }
    cell->n = w;
    cell->escaped = escaped;
    return 0;
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

/* The stages of one pass. A character travels with its position in the cell's text, or -1 when a
 * rule inserted it (always a space). Each two-character rule is a stage that holds back one
 * character (`held`, when `pending`): on the next one it either writes the pair's replacement on
 * into the next stage or writes the held character on and holds the new one, which is how re.sub
 * scans (leftmost, non-overlapping). Every stage is an inline function calling the next. */
typedef struct {
    Cell *cell;
    int pending[3];
    Py_UCS4 held[3];
    Py_ssize_t at[3];
    int inside; /* a token is open at [start .. last] */
    Py_ssize_t start, last;
    int error; /* set when intl_kind failed */
} Pass;

/* The last stage: TOK-SPLIT. Tokens are runs of non-whitespace: spans of the text. */
static inline void
split_push(Pass *p, Py_UCS4 ch, Py_ssize_t at)
{
    if (at < 0 || is_space(ch)) {
        if (p->inside) {
            Cell *cell = p->cell;
            cell->start[cell->count] = p->start;
            cell->len[cell->count++] = p->last - p->start + 1;
            p->inside = 0;
        }
        return;
    }
    if (!p->inside) {
        p->inside = 1;
        p->start = at;
    }
    p->last = at;
}

/* A two-character rule's stage: NAME(p, ch, at) with the rule's test of the held character X and the
 * new one Y, its replacement (AFTER: "x y ", else " x y"), and the next stage. */
#define PAIR_STAGE(NAME, K, TEST, AFTER, NEXT)                                                        \
    static inline void NAME(Pass *p, Py_UCS4 ch, Py_ssize_t at)                                      \
    {                                                                                               \
        if (p->pending[K]) {                                                                        \
            Py_UCS4 x = p->held[K], y = ch;                                                         \
            Py_ssize_t x_at = p->at[K], y_at = at;                                                  \
            if (TEST) {                                                                             \
                p->pending[K] = 0;                                                                  \
                if (AFTER) {                                                                        \
                    NEXT(p, x, x_at), NEXT(p, ' ', -1), NEXT(p, y, y_at), NEXT(p, ' ', -1);         \
                }                                                                                   \
                else {                                                                              \
                    NEXT(p, ' ', -1), NEXT(p, x, x_at), NEXT(p, ' ', -1), NEXT(p, y, y_at);         \
                }                                                                                   \
                return;                                                                             \
            }                                                                                       \
            NEXT(p, x, x_at);                                                                       \
        }                                                                                           \
        p->held[K] = ch, p->at[K] = at, p->pending[K] = 1;                                          \
    }

/* TOK-13A's steps 5 to 7 (and TOK-ZH's): s/([^0-9])([\.,])/$1 $2 /g, s/([\.,])([^0-9])/ $1 $2/g,
 * s/([0-9])(-)/$1 $2 /g. */
PAIR_STAGE(dash_stage, 2, y == '-' && has(x, DIGIT), 1, split_push)
PAIR_STAGE(point_before_stage, 1, has(x, POINT) && !has(y, DIGIT), 0, dash_stage)
PAIR_STAGE(point_after_stage, 0, has(y, POINT) && !has(x, DIGIT), 1, point_before_stage)

/* The 13a stages' end: what the three stages still hold, then the split's. */
static void
flush_13a(Pass *p)
{
    if (p->pending[0]) {
        p->pending[0] = 0;
        point_before_stage(p, p->held[0], p->at[0]);
    }
    if (p->pending[1]) {
        p->pending[1] = 0;
        dash_stage(p, p->held[1], p->at[1]);
    }
    if (p->pending[2]) {
        p->pending[2] = 0;
        split_push(p, p->held[2], p->at[2]);
    }
    split_push(p, ' ', -1);
}

/* Whether no rule of TOK-13A's steps 4 to 7 (or TOK-ZH's) reads a non-space character: no digit,
 * point, comma, dash, character of the class (or Chinese character). */
static inline int
plain_13a(Py_UCS4 c, int zh)
{
    if (c < 128) {
        return !(ascii_class[c] & (IN_CLASS | DIGIT | POINT)) && c != '-';
    }
    return !(zh && is_zh(c));
}

/* Into the 13a stages through TOK-13A's character map (step 4): a character of the class as " c ". */
static inline void
map_13a(Pass *p, Py_UCS4 ch, Py_ssize_t at)
{
    if (has(ch, IN_CLASS)) {
        point_after_stage(p, ' ', -1);
        point_after_stage(p, ch, at);
        point_after_stage(p, ' ', -1);
    }
    else {
        point_after_stage(p, ch, at);
    }
}

/* TOK-INTL's kind of a character that travels through the stages (an inserted space: other). */
static inline int
kind_of(Pass *p, Py_UCS4 ch, Py_ssize_t at)
{
    if (at < 0) {
        return KIND_OTHER;
    }
    int kind = intl_kind(ch);
    if (kind < 0) {
        p->error = 1;
        return KIND_OTHER;
    }
    return kind;
}

/* Whether no pass of TOK-INTL reads a non-space character: neither a number, nor punctuation, nor a symbol. */
static inline int
plain_intl(Pass *p, Py_UCS4 c)
{
    return kind_of(p, c, 0) == KIND_OTHER;
}

/* TOK-INTL's pass 3, s/(\p{S})/ $1 /g, then the split. */
static inline void
symbol_stage(Pass *p, Py_UCS4 ch, Py_ssize_t at)
{
    if (kind_of(p, ch, at) == KIND_S) {
        split_push(p, ' ', -1);
        split_push(p, ch, at);
        split_push(p, ' ', -1);
    }
    else {
        split_push(p, ch, at);
    }
}

/* TOK-INTL's passes 1 and 2: s/(\P{N})(\p{P})/$1 $2 /g, s/(\p{P})(\P{N})/ $1 $2/g. */
PAIR_STAGE(punctuation_before_stage, 1, kind_of(p, x, x_at) == KIND_P && kind_of(p, y, y_at) != KIND_N, 0,
           symbol_stage)
PAIR_STAGE(punctuation_after_stage, 0, kind_of(p, y, y_at) == KIND_P && kind_of(p, x, x_at) != KIND_N, 1,
           punctuation_before_stage)

static void
flush_intl(Pass *p)
{
    if (p->pending[0]) {
        p->pending[0] = 0;
        punctuation_before_stage(p, p->held[0], p->at[0]);
    }
    if (p->pending[1]) {
        p->pending[1] = 0;
        symbol_stage(p, p->held[1], p->at[1]);
    }
    split_push(p, ' ', -1);
}

/* TOK-PIPELINE's tokenizer and split on the cell's text, without case folding: its tokens as spans.
 * 0, or -1 with an exception set. */
static int
tokenize_cell(Cell *cell, int tokenizer)
{
    Py_UCS4 *text = cell->text;
    Py_ssize_t n = cell->n, from = 0;
    while (n > 0 && is_space(text[n - 1])) { /* str.rstrip() */
        n--;
    }
    if (tokenizer == TOK_13A) { /* steps 1 and 2, in the order of tokenizers._REPLACEMENTS_13A */
        if (cell->escaped) {
            static const char *const replacements[][2] = {
                {"<skipped>", ""}, {"-\n", ""},   {"\n", " "},  {"&quot;", "\""},
                {"&amp;", "&"},    {"&lt;", "<"}, {"&gt;", ">"},
            };
            for (size_t k = 0; k < sizeof(replacements) / sizeof(replacements[0]); k++) {
                n = replace_shrinking(text, n, replacements[k][0], replacements[k][1]);
            }
        }
    }
    if (tokenizer == TOK_ZH) { /* str.strip() */
        while (from < n && is_space(text[from])) {
            from++;
        }
    }
    /* A character gives at most one token; " c " of the maps gives none more. */
    if (reserve_tokens(cell, n + 1) < 0) {
        return -1;
    }
    cell->count = 0;
    Pass p;
    memset(&p, 0, sizeof(Pass));
    p.cell = cell;
    if (tokenizer == TOK_NONE || tokenizer == TOK_CHAR) {
        for (Py_ssize_t i = 0; i < n; i++) {
            split_push(&p, text[i], i);
            if (tokenizer == TOK_CHAR) {
                split_push(&p, ' ', -1); /* " ".join(line) */
            }
        }
        split_push(&p, ' ', -1);
        return 0;
    }
    if (tokenizer == TOK_INTL && load_intl_kinds() < 0) {
        return -1;
    }
    /* Word by word. No rule reads whitespace but as a character that is neither a digit nor a
     * number, nor a point, comma, dash, punctuation or symbol, which a rule never replaces when it
     * comes second, nor matches on when it comes first but as 13a's first rule's x (any non-digit)
     * or intl's first pass's (any non-number), which a space padding the word is as well. So each
     * run of non-whitespace is tokenized alone, a space before and after it, except at the line's
     * ends for zh and intl, which do not pad the line (a first "." has nothing before it). A word
     * that no rule reads at all (its characters plain_13a or plain_intl) is one token. */
    Py_ssize_t i = from;
    while (i < n) {
        while (i < n && is_space(text[i])) {
            i++;
        }
        if (i == n) {
            break;
        }
        Py_ssize_t word = i;
        int plain = 1;
        while (i < n && !is_space(text[i])) {
            if (plain) {
                plain = tokenizer == TOK_INTL ? plain_intl(&p, text[i]) : plain_13a(text[i], tokenizer == TOK_ZH);
            }
            i++;
        }
        if (p.error) {
            return -1;
        }
        int first = word == from, last = i == n, padded = tokenizer == TOK_13A;
        if (plain) {
            cell->start[cell->count] = word;
            cell->len[cell->count++] = i - word;
        }
        else if (tokenizer == TOK_INTL) {
            memset(p.pending, 0, sizeof(p.pending));
            if (!first) {
                punctuation_after_stage(&p, ' ', -1);
            }
            for (Py_ssize_t k = word; k < i; k++) {
                punctuation_after_stage(&p, text[k], k);
            }
            if (!last) {
                punctuation_after_stage(&p, ' ', -1);
            }
            flush_intl(&p);
            if (p.error) {
                return -1;
            }
        }
        else {
            memset(p.pending, 0, sizeof(p.pending));
            if (padded || !first) { /* TOK-13A's step 3, or the whitespace before the word */
                map_13a(&p, ' ', -1);
            }
            for (Py_ssize_t k = word; k < i; k++) {
                if (tokenizer == TOK_ZH && is_zh(text[k])) {
                    map_13a(&p, ' ', -1);
                    map_13a(&p, text[k], k);
                    map_13a(&p, ' ', -1);
                }
                else {
                    map_13a(&p, text[k], k);
                }
            }
            if (padded || !last) {
                map_13a(&p, ' ', -1);
            }
            flush_13a(&p);
        }
    }
    return 0;
}

static int
tokenizer_argument(PyObject *value)
{
    long tokenizer = PyLong_AsLong(value);
    if (tokenizer == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (tokenizer < 0 || tokenizer >= TOKENIZER_COUNT) {
        PyErr_Format(PyExc_ValueError, "unknown tokenizer number %ld", tokenizer);
        return -1;
    }
    return (int)tokenizer;
}

static PyObject *
tokens(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "tokens(line, tokenizer)");
        return NULL;
    }
    if (!PyUnicode_Check(args[0])) {
        PyErr_Format(PyExc_TypeError, "tokens() takes a str, not %.80s", Py_TYPE(args[0])->tp_name);
        return NULL;
    }
    int tokenizer = tokenizer_argument(args[1]);
    if (tokenizer < 0) {
        return NULL;
    }
    Cell cell = {0};
    PyObject *result = NULL;
    if (load_str(&cell, args[0], 0, PyUnicode_GET_LENGTH(args[0])) < 0 || tokenize_cell(&cell, tokenizer) < 0) {
        goto done;
    }
    result = PyList_New(cell.count);
    for (Py_ssize_t k = 0; result != NULL && k < cell.count; k++) {
        PyObject *token = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, cell.text + cell.start[k], cell.len[k]);
        if (token == NULL) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, k, token);
    }
done:
    free_cell(&cell);
    return result;
}

/* ---- lines tokenized and counted in one call ------------------------------------------------- */

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

/* What counts_rows and counts_lines share: a row's cells (its systems' candidates, then its
 * references), the tables, and the sums so far. */
typedef struct {
    Py_ssize_t systems, cells, orders;
    int tokenizer;
    Cell *row;
    Cell **refs;
    Py_ssize_t **ref_ids, *ref_len;
    Py_ssize_t *table, table_cap;
    Counter counter;
    Py_ssize_t *matches; /* systems x orders */
    Py_ssize_t *totals;  /* systems x orders: the sums of max(0, c - n + 1), n = 1..orders */
    Py_ssize_t *sums;    /* cells: each column's number of tokens */
    Py_ssize_t *own;     /* orders: one candidate's clipped matches in one row */
} Rows;

static void
free_rows(Rows *rows)
{
    if (rows->row != NULL) {
        for (Py_ssize_t k = 0; k < rows->cells; k++) {
            free_cell(&rows->row[k]);
        }
    }
    PyMem_Free(rows->row);
    PyMem_Free(rows->refs);
    PyMem_Free(rows->ref_ids);
    PyMem_Free(rows->ref_len);
    PyMem_Free(rows->table);
    PyMem_Free(rows->matches);
    PyMem_Free(rows->totals);
    PyMem_Free(rows->sums);
    PyMem_Free(rows->own);
    free_counter(&rows->counter);
    memset(rows, 0, sizeof(Rows));
}

static int
start_rows(Rows *rows, Py_ssize_t systems, Py_ssize_t cells, Py_ssize_t orders, int tokenizer)
{
    memset(rows, 0, sizeof(Rows));
    rows->systems = systems, rows->cells = cells, rows->orders = orders, rows->tokenizer = tokenizer;
    if (cells <= systems) {
        PyErr_SetString(PyExc_ValueError, "a row needs its systems' lines and at least one reference");
        return -1;
    }
    rows->row = PyMem_Calloc((size_t)cells, sizeof(Cell));
    rows->refs = PyMem_Calloc((size_t)cells, sizeof(Cell *));
    rows->ref_ids = PyMem_Calloc((size_t)cells, sizeof(Py_ssize_t *));
    rows->ref_len = PyMem_Calloc((size_t)cells, sizeof(Py_ssize_t));
    rows->matches = PyMem_Calloc((size_t)(systems * orders + 1), sizeof(Py_ssize_t));
    rows->totals = PyMem_Calloc((size_t)(systems * orders + 1), sizeof(Py_ssize_t));
    rows->sums = PyMem_Calloc((size_t)cells + 1, sizeof(Py_ssize_t));
    rows->own = PyMem_Calloc((size_t)orders + 1, sizeof(Py_ssize_t));
    if (rows->row == NULL || rows->refs == NULL || rows->ref_ids == NULL || rows->ref_len == NULL ||
        rows->matches == NULL || rows->totals == NULL || rows->sums == NULL || rows->own == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = systems; k < cells; k++) {
        rows->refs[k - systems] = &rows->row[k];
    }
    return 0;
}

/* Tokenizes the row's cells (their text loaded) and adds each candidate's clipped matches; each
 * cell's number of tokens to lengths[0..cells), and, where `segment` is given (zeroed), each system's
 * own clipped matches of the row to segment[0..systems x orders). 0, or -1 with an exception set. */
static int
count_row(Rows *rows, long long *lengths, long long *segment)
{
    Py_ssize_t systems = rows->systems, nrefs = rows->cells - systems;
    for (Py_ssize_t k = 0; k < rows->cells; k++) {
        if (tokenize_cell(&rows->row[k], rows->tokenizer) < 0) {
            return -1;
        }
        Py_ssize_t count = rows->row[k].count;
        lengths[k] = (long long)count;
        rows->sums[k] += count;
        for (Py_ssize_t n = 0; k < systems && n < rows->orders && n < count; n++) {
            rows->totals[k * rows->orders + n] += count - n;
        }
    }
    for (Py_ssize_t k = 0; k < systems; k++) {
        Cell *candidate = &rows->row[k];
        if (candidate->count == 0 || rows->orders == 0) {
            continue;
        }
        Py_ssize_t slots = 8; /* this candidate's table: a prefix of the largest one allocated */
        while (slots < 2 * candidate->count + 2) {
            slots <<= 1;
        }
        if (RESERVE(rows->table, rows->table_cap, slots) < 0) {
            return -1;
        }
        span_ids(candidate, rows->refs, nrefs, rows->table, (size_t)slots - 1);
        for (Py_ssize_t r = 0; r < nrefs; r++) {
            rows->ref_ids[r] = rows->refs[r]->ids;
            rows->ref_len[r] = rows->refs[r]->count;
        }
        Py_ssize_t *summed = rows->matches + k * rows->orders, *own = rows->own;
        memset(own, 0, (size_t)rows->orders * sizeof(Py_ssize_t));
        if (count_clipped(&rows->counter, candidate->ids, candidate->count, rows->ref_ids, rows->ref_len, nrefs,
                          rows->orders, own) < 0) {
            return -1;
        }
        for (Py_ssize_t n = 0; n < rows->orders; n++) {
            summed[n] += own[n];
            if (segment != NULL) {
                segment[k * rows->orders + n] = (long long)own[n];
            }
        }
    }
    return 0;
}

/* A list of `count` lists of `width` ints from values[0 .. count * width). */
static PyObject *
int_lists(const Py_ssize_t *values, Py_ssize_t count, Py_ssize_t width)
{
    PyObject *lists = PyList_New(count);
    for (Py_ssize_t k = 0; lists != NULL && k < count; k++) {
        PyObject *list = int_list(values + k * width, width);
        if (list == NULL) {
            Py_CLEAR(lists);
            break;
        }
        PyList_SET_ITEM(lists, k, list);
    }
    return lists;
}

/* (matches, lengths, totals, sums): each system's summed clipped matches, the lengths bytes, each
 * system's summed totals Σ max(0, c - n + 1) for n = 1..orders, and each column's number of tokens. */
static PyObject *
rows_answer(Rows *rows, PyObject *lengths)
{
    PyObject *matches = int_lists(rows->matches, rows->systems, rows->orders);
    PyObject *totals = matches == NULL ? NULL : int_lists(rows->totals, rows->systems, rows->orders);
    PyObject *sums = totals == NULL ? NULL : int_list(rows->sums, rows->cells);
    PyObject *result = sums == NULL ? NULL : PyTuple_Pack(4, matches, lengths, totals, sums);
    Py_XDECREF(matches);
    Py_XDECREF(totals);
    Py_XDECREF(sums);
    return result;
}

/* bytes for `count` native long long values (count checked against overflow). */
static PyObject *
lengths_bytes(Py_ssize_t count)
{
    if (count > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(long long)) {
        return PyErr_NoMemory();
    }
    return PyBytes_FromStringAndSize(NULL, count * (Py_ssize_t)sizeof(long long));
}

/* The common arguments (systems, orders, tokenizer) of counts_rows and counts_lines: 0 or -1. */
static int
counting_arguments(PyObject *const *args, Py_ssize_t *systems, Py_ssize_t *orders, int *tokenizer)
{
    *systems = PyLong_AsSsize_t(args[0]);
    if (*systems < 1) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "systems must be at least 1");
        }
        return -1;
    }
    *orders = count_argument(args[1], "orders");
    if (*orders < 0) {
        return -1;
    }
    *tokenizer = tokenizer_argument(args[2]);
    return *tokenizer < 0 ? -1 : 0;
}

/* counts_rows(rows, systems, orders, tokenizer) -> (matches, lengths, totals, sums). Each row is a
 * sequence of `systems` candidate lines, then at least one reference line, every row with as many
 * (str). matches[k] is the sum over rows of clipped_matches(candidate k, references, orders) of
 * their tokens; lengths is bytes of native long long (memoryview(lengths).cast("q")), row by row each
 * cell's number of tokens; totals[k] system k's Σ max(0, c - n + 1), n = 1..orders; sums each
 * column's number of tokens. */
static PyObject *
counts_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "counts_rows(rows, systems, orders, tokenizer)");
        return NULL;
    }
    Py_ssize_t systems, orders;
    int tokenizer;
    if (counting_arguments(args + 1, &systems, &orders, &tokenizer) < 0) {
        return NULL;
    }
    PyObject *seq = PySequence_Fast(args[0], "rows must be a sequence of rows"), *result = NULL, *lengths = NULL;
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t nrows = PySequence_Fast_GET_SIZE(seq), cells = -1;
    Rows rows = {0};
    for (Py_ssize_t i = 0; i < nrows; i++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_ITEMS(seq)[i], "a row must be a sequence of lines");
        if (row == NULL) {
            goto done;
        }
        Py_ssize_t size = PySequence_Fast_GET_SIZE(row);
        if (cells < 0) {
            cells = size;
            if (start_rows(&rows, systems, cells, orders, tokenizer) < 0 ||
                nrows > PY_SSIZE_T_MAX / cells || (lengths = lengths_bytes(nrows * cells)) == NULL) {
                Py_DECREF(row);
                goto done;
            }
        }
        else if (size != cells) {
            PyErr_SetString(PyExc_ValueError, "every row must have as many lines");
            Py_DECREF(row);
            goto done;
        }
        int failed = 0;
        for (Py_ssize_t k = 0; k < cells && !failed; k++) {
            PyObject *line = PySequence_Fast_ITEMS(row)[k];
            if (!PyUnicode_Check(line)) {
                PyErr_Format(PyExc_TypeError, "a line must be a str, not %.80s", Py_TYPE(line)->tp_name);
                failed = 1;
            }
            else {
                failed = load_str(&rows.row[k], line, 0, PyUnicode_GET_LENGTH(line)) < 0;
            }
        }
        Py_DECREF(row);
        if (failed || count_row(&rows, (long long *)PyBytes_AS_STRING(lengths) + i * cells, NULL) < 0) {
            goto done;
        }
    }
    if (lengths == NULL) { /* no row: no system has matches */
        if (start_rows(&rows, systems, systems + 1, orders, tokenizer) < 0 || (lengths = lengths_bytes(0)) == NULL) {
            goto done;
        }
    }
    result = rows_answer(&rows, lengths);
done:
    free_rows(&rows);
    Py_XDECREF(lengths);
    Py_DECREF(seq);
    return result;
}

/* A block of lines: bytes (UTF-8) or str, each line ended by "\n". */
typedef struct {
    PyObject *object;
    int is_bytes;
    const char *bytes;
    Py_ssize_t size; /* bytes, or code points */
} Block;

static int
block_argument(PyObject *object, Block *block)
{
    block->object = object;
    block->is_bytes = PyBytes_Check(object);
    if (block->is_bytes) {
        block->bytes = PyBytes_AS_STRING(object);
        block->size = PyBytes_GET_SIZE(object);
        return 0;
    }
    if (PyUnicode_Check(object)) {
        block->size = PyUnicode_GET_LENGTH(object);
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "a block of lines is bytes or str, not %.80s", Py_TYPE(object)->tp_name);
    return -1;
}

/* The end (the position of its "\n") of the line that starts at `at`; -1 when there is none. */
static Py_ssize_t
line_end(const Block *block, Py_ssize_t at)
{
    if (at >= block->size) {
        return -1;
    }
    if (block->is_bytes) {
        const char *found = memchr(block->bytes + at, '\n', (size_t)(block->size - at));
        return found == NULL ? -1 : found - block->bytes;
    }
    Py_ssize_t found = PyUnicode_FindChar(block->object, '\n', at, block->size, 1);
    return found < 0 ? -1 : found;
}

/* counts_lines(buffers, systems, orders, tokenizer, segments=False) -> (rows, bad, matches, lengths,
 * totals, sums[, segment matches]): rows as counts_rows counts them, their lines read from blocks. buffers[k] is file k's block (bytes of
 * UTF-8, or str), the `systems` hypothesis files first; every block holds as many lines, each
 * ended by "\n". `rows` is the number of rows counted, `bad` -1, or the file whose line `rows`
 * (counted from 0) is not valid UTF-8, which ended the counting there. With `segments` true, the
 * answer ends with native long long bytes: row by row, each system's own clipped matches. */
static PyObject *
counts_lines(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 && nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "counts_lines(buffers, systems, orders, tokenizer, segments=False)");
        return NULL;
    }
    int keep = nargs == 5 ? PyObject_IsTrue(args[4]) : 0;
    if (keep < 0) {
        return NULL;
    }
    Py_ssize_t systems, orders;
    int tokenizer;
    if (counting_arguments(args + 1, &systems, &orders, &tokenizer) < 0) {
        return NULL;
    }
    PyObject *seq = PySequence_Fast(args[0], "buffers must be a sequence of blocks"), *result = NULL,
             *lengths = NULL, *answer = NULL, *segments = NULL;
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t cells = PySequence_Fast_GET_SIZE(seq), done = 0, bad = -1, nrows = 0;
    Rows rows = {0};
    Block *blocks = PyMem_Calloc((size_t)cells + 1, sizeof(Block));
    Py_ssize_t *at = PyMem_Calloc((size_t)cells + 1, sizeof(Py_ssize_t));
    if (blocks == NULL || at == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (start_rows(&rows, systems, cells, orders, tokenizer) < 0) {
        goto done;
    }
    for (Py_ssize_t k = 0; k < cells; k++) {
        if (block_argument(PySequence_Fast_ITEMS(seq)[k], &blocks[k]) < 0) {
            goto done;
        }
    }
    for (Py_ssize_t end = line_end(&blocks[0], 0); end >= 0; end = line_end(&blocks[0], end + 1)) {
        nrows++; /* the first block's lines: every block must hold as many */
    }
    if ((lengths = lengths_bytes(nrows * cells)) == NULL ||
        (segments = lengths_bytes(keep ? nrows * systems * orders : 0)) == NULL) {
        goto done;
    }
    long long *length = (long long *)PyBytes_AS_STRING(lengths), *segment = (long long *)PyBytes_AS_STRING(segments);
    if (keep) {
        memset(segment, 0, (size_t)(nrows * systems * orders) * sizeof(long long));
    }
    for (; done < nrows && bad < 0; done++) {
        for (Py_ssize_t k = 0; k < cells; k++) {
            Block *block = &blocks[k];
            Py_ssize_t end = line_end(block, at[k]);
            if (end < 0) {
                PyErr_SetString(PyExc_ValueError, "every block must hold as many lines");
                goto done;
            }
            int status = block->is_bytes
                             ? load_utf8(&rows.row[k], (const unsigned char *)block->bytes + at[k], end - at[k])
                             : load_str(&rows.row[k], block->object, at[k], end);
            if (status < 0) {
                goto done;
            }
            if (status > 0) {
                bad = k;
                break;
            }
            at[k] = end + 1;
        }
        if (bad >= 0) {
            break;
        }
        if (count_row(&rows, length + done * cells, keep ? segment + done * systems * orders : NULL) < 0) {
            goto done;
        }
    }
    for (Py_ssize_t k = 0; k < cells && bad < 0; k++) {
        if (at[k] != blocks[k].size) {
            PyErr_SetString(PyExc_ValueError, "every block must hold as many lines");
            goto done;
        }
    }
    if (_PyBytes_Resize(&lengths, done * cells * (Py_ssize_t)sizeof(long long)) < 0 ||
        _PyBytes_Resize(&segments, (keep ? done * systems * orders : 0) * (Py_ssize_t)sizeof(long long)) < 0) {
        goto done;
    }
    answer = rows_answer(&rows, lengths);
    if (answer != NULL && keep) {
        result = Py_BuildValue("(nnOOOOO)", done, bad, PyTuple_GET_ITEM(answer, 0), PyTuple_GET_ITEM(answer, 1),
                               PyTuple_GET_ITEM(answer, 2), PyTuple_GET_ITEM(answer, 3), segments);
    }
    else if (answer != NULL) {
        result = Py_BuildValue("(nnOOOO)", done, bad, PyTuple_GET_ITEM(answer, 0), PyTuple_GET_ITEM(answer, 1),
                               PyTuple_GET_ITEM(answer, 2), PyTuple_GET_ITEM(answer, 3));
    }
done:
    free_rows(&rows);
    PyMem_Free(blocks);
    PyMem_Free(at);
    Py_XDECREF(answer);
    Py_XDECREF(lengths);
    Py_XDECREF(segments);
    Py_DECREF(seq);
    return result;
}

/* skip_lines(buffer, start, count) -> the position just after the count-th line end from start. */
static PyObject *
skip_lines(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "skip_lines(buffer, start, count)");
        return NULL;
    }
    Block block;
    if (block_argument(args[0], &block) < 0) {
        return NULL;
    }
    Py_ssize_t at = count_argument(args[1], "start"), count = at < 0 ? -1 : count_argument(args[2], "count");
    if (count < 0) {
        return NULL;
    }
    for (; count > 0; count--) {
        Py_ssize_t end = line_end(&block, at);
        if (end < 0) {
            PyErr_SetString(PyExc_ValueError, "the buffer holds fewer lines");
            return NULL;
        }
        at = end + 1;
    }
    return PyLong_FromSsize_t(at);
}

/* long_line(buffer, limit) -> the index (from 0) of the first line of the bytes longer than `limit`
 * bytes without its "\n" (the last line need not end with one), or -1. */
static PyObject *
long_line(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyBytes_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "long_line(buffer: bytes, limit)");
        return NULL;
    }
    Py_ssize_t limit = count_argument(args[1], "limit");
    if (limit < 0) {
        return NULL;
    }
    const char *data = PyBytes_AS_STRING(args[0]);
    Py_ssize_t size = PyBytes_GET_SIZE(args[0]), at = 0, index = 0;
    while (at < size) {
        const char *found = memchr(data + at, '\n', (size_t)(size - at));
        Py_ssize_t end = found == NULL ? size : found - data;
        if (end - at > limit) {
            return PyLong_FromSsize_t(index);
        }
        at = end + 1;
        index++;
    }
    return PyLong_FromLong(-1);
}

static PyMethodDef methods[] = {
    {"clipped_matches", (PyCFunction)(void (*)(void))clipped_matches, METH_FASTCALL,
     "clipped_matches(candidate, references, orders) -> the clipped matches of orders 1..orders."},
    {"summed_clipped_matches", (PyCFunction)(void (*)(void))summed_clipped_matches, METH_FASTCALL,
     "summed_clipped_matches(candidates, references, orders) -> the sum of each segment's clipped matches."},
    {"tokens", (PyCFunction)(void (*)(void))tokens, METH_FASTCALL,
     "tokens(line, tokenizer) -> the tokens of TOK-PIPELINE without case folding: tokenizer(line.rstrip()).split()."},
    {"counts_rows", (PyCFunction)(void (*)(void))counts_rows, METH_FASTCALL,
     "counts_rows(rows, systems, orders, tokenizer) -> (matches, lengths, totals, sums) of the rows' lines."},
    {"counts_lines", (PyCFunction)(void (*)(void))counts_lines, METH_FASTCALL,
     "counts_lines(buffers, systems, orders, tokenizer, segments=False) -> (rows, bad file or -1, matches, lengths, totals, sums[, segment matches])."},
    {"skip_lines", (PyCFunction)(void (*)(void))skip_lines, METH_FASTCALL,
     "skip_lines(buffer, start, count) -> the position after count lines from start."},
    {"long_line", (PyCFunction)(void (*)(void))long_line, METH_FASTCALL,
     "long_line(buffer, limit) -> the index of the first line longer than limit bytes, or -1."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT, "reference_bleu.fast._kernel",
    "The compiled kernel of NUM-FAST: counting and the tokenizers (spec NUM-KERNEL).", -1, methods,
};

PyMODINIT_FUNC
PyInit__kernel(void)
{
    fill_ascii_class();
    PyObject *module = PyModule_Create(&kernel_module);
    if (module == NULL) {
        return NULL;
    }
    PyObject *names = PyTuple_New(TOKENIZER_COUNT);
    for (int k = 0; names != NULL && k < TOKENIZER_COUNT; k++) {
        PyObject *name = PyUnicode_FromString(tokenizer_names[k]);
        if (name == NULL) {
            Py_CLEAR(names);
            break;
        }
        PyTuple_SET_ITEM(names, k, name);
    }
    if (names == NULL || PyModule_AddObject(module, "TOKENIZERS", names) < 0) {
        Py_XDECREF(names);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
