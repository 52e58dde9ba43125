/* weighted.py's _Matcher (Galil's O(n^3) primal-dual blossom) over arrays of machine integers, step for step.
 *
 * Every choice is made in the same order as weighted.py's (the greedy start's stable order of edges, the LIFO
 * queue of S-nodes, the order of a blossom's leaves, strict comparisons of slacks), so that it returns the
 * same matching and the same duals, not merely another optimum. weighted_native.py loads it with ctypes;
 * scripts/build_engine.py compiles it.
 *
 * The body below the #else is compiled twice, by including this file in itself: over int64_t (functions wm_*)
 * and, where the compiler has it, over __int128 (wm128_*). The caller keeps the weights strictly within
 * +-2 ** 58 and +-2 ** 120 respectively; the duals are checked against +-2 ** 60 and +-2 ** 124 after each
 * change (and the final slacks are added with overflow checks), so that no slack (two duals less twice a
 * weight) can overflow: a run that would go past the bound stops with an error and the caller falls back to
 * weighted.py's integers of any size.
 */

#ifndef WM_BODY
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NONE (-1)
#define GREEDY_REBALANCES 8 /* weighted.py's GREEDY_REBALANCES */

static void *xcalloc(size_t count, size_t each) { return calloc(count ? count : 1, each); }

static inline int64_t wrap(int64_t j, int64_t len) { return j < 0 ? j + len : j; }

/* The ends of the edges `kept` (indices) of the flat ends `flat` (u, v, u, v...), in that order, into `out`. */
void wm_gather(const int64_t *flat, const int64_t *kept, int64_t count, int64_t *out) {
    for (int64_t i = 0; i < count; i++) {
        out[2 * i] = flat[2 * kept[i]];
        out[2 * i + 1] = flat[2 * kept[i] + 1];
    }
}

/* values[kept[i]] for each i, into `out`. */
void wm_gather1(const int64_t *values, const int64_t *kept, int64_t count, int64_t *out) {
    for (int64_t i = 0; i < count; i++) out[i] = values[kept[i]];
}

/* marks[v] = 1 for each of `values`; 0, or -1 when one is outside 0..limit-1. */
int wm_mark(const int64_t *values, int64_t count, int64_t limit, char *marks) {
    for (int64_t i = 0; i < count; i++) {
        if (values[i] < 0 || values[i] >= limit) return -1;
        marks[values[i]] = 1;
    }
    return 0;
}

/* The smallest and largest of `values` (count > 0) into extent[0], extent[1]. */
void wm_extent(const int64_t *values, int64_t count, int64_t *extent) {
    int64_t low = values[0], high = values[0];
    for (int64_t i = 1; i < count; i++) {
        if (values[i] < low) low = values[i];
        if (values[i] > high) high = values[i];
    }
    extent[0] = low;
    extent[1] = high;
}

/* Numbers the distinct `ids` (each within low..low+span-1) 0, 1, ... by first appearance: each id's number into
 * `out`, the ids by number into `names`; `table` (span entries) is scratch. Returns how many there are. */
int64_t wm_relabel(const int64_t *ids, int64_t count, int64_t low, int64_t span, int64_t *table, int64_t *out,
                   int64_t *names) {
    int64_t found = 0;
    for (int64_t j = 0; j < span; j++) table[j] = NONE;
    for (int64_t i = 0; i < count; i++) {
        int64_t slot = ids[i] - low;
        if (table[slot] == NONE) {
            table[slot] = found;
            names[found++] = ids[i];
        }
        out[i] = table[slot];
    }
    return found;
}

/* The edges (indices, into kept_out) whose ends' classes (`classes`, a byte a node, each below `kinds`) the
 * table `keep` (kinds x kinds bytes) admits; how many, or -1 for a class out of range. */
int64_t wm_select(const int64_t *flat, int64_t count, const char *classes, int64_t kinds, const char *keep,
                  int64_t *kept_out) {
    int64_t found = 0;
    for (int64_t k = 0; k < count; k++) {
        int cu = classes[flat[2 * k]], cv = classes[flat[2 * k + 1]];
        if (cu < 0 || cu >= kinds || cv < 0 || cv >= kinds) return -1;
        if (keep[cu * kinds + cv]) kept_out[found++] = k;
    }
    return found;
}

/* The sum of weights[k] over the edges k whose ends are partners (partners[u] == v). */
int64_t wm_matched_total(const int64_t *flat, const int64_t *weights, int64_t count, const int64_t *partners) {
    int64_t total = 0;
    for (int64_t k = 0; k < count; k++) if (partners[flat[2 * k]] == flat[2 * k + 1]) total += weights[k];
    return total;
}

/* Weights of node pairs, found by halving among each node's neighbours in increasing order. */
typedef struct {
    int64_t size;
    int64_t *start, *other, *weight;
} WmPairs;

void wm_pairs_free(WmPairs *p) {
    if (p == NULL) return;
    free(p->start); free(p->other); free(p->weight);
    free(p);
}

/* The weights of the edges (ends flat) over nodes 0..size-1, by pair (a pair listed twice: its later weight).
 * NULL when out of memory or for an end out of range. */
WmPairs *wm_pairs_new(int64_t size, int64_t edges, const int64_t *ends, const int64_t *weights) {
    if (size <= 0 || edges < 0 || size > INT64_MAX / 4 || edges > INT64_MAX / 4) return NULL;
    for (int64_t k = 0; k < 2 * edges; k++) if (ends[k] < 0 || ends[k] >= size) return NULL;
    WmPairs *p = calloc(1, sizeof(WmPairs));
    int64_t *by_first = xcalloc(size + 1, sizeof(int64_t)), *first_other = xcalloc(2 * edges, sizeof(int64_t));
    int64_t *first_edge = xcalloc(2 * edges, sizeof(int64_t)), *fill = xcalloc(size + 1, sizeof(int64_t));
    if (p != NULL) {
        p->size = size;
        p->start = xcalloc(size + 1, sizeof(int64_t));
        p->other = xcalloc(2 * edges, sizeof(int64_t));
        p->weight = xcalloc(2 * edges, sizeof(int64_t));
    }
    if (p == NULL || !p->start || !p->other || !p->weight || !by_first || !first_other || !first_edge || !fill) {
        free(by_first); free(first_other); free(first_edge); free(fill);
        wm_pairs_free(p);
        return NULL;
    }
    /* Each edge at both ends, grouped by end; then regrouped by the other end, taken in increasing order of
     * the first, which leaves every node's list sorted by neighbour (a counting sort, twice). */
    for (int64_t k = 0; k < 2 * edges; k++) by_first[ends[k] + 1]++;
    for (int64_t v = 0; v < size; v++) by_first[v + 1] += by_first[v];
    memcpy(fill, by_first, (size_t)(size + 1) * sizeof(int64_t));
    for (int64_t k = 0; k < edges; k++) {
        int64_t u = ends[2 * k], v = ends[2 * k + 1];
        first_other[fill[u]] = v;
        first_edge[fill[u]++] = k;
        first_other[fill[v]] = u;
        first_edge[fill[v]++] = k;
    }
    memcpy(p->start, by_first, (size_t)(size + 1) * sizeof(int64_t));
    memcpy(fill, by_first, (size_t)(size + 1) * sizeof(int64_t));
    for (int64_t u = 0; u < size; u++) {
        for (int64_t q = by_first[u]; q < by_first[u + 1]; q++) {
            int64_t v = first_other[q];
            p->other[fill[v]] = u;
            p->weight[fill[v]++] = weights[first_edge[q]];
        }
    }
    free(by_first); free(first_other); free(first_edge); free(fill);
    return p;
}

/* The sum of the weights of the pairs of `partners` (v < partners[v]) into *total; 0, or -1 when a pair is
 * not an edge. */
int wm_pairs_total(const WmPairs *p, const int64_t *partners, int64_t *total) {
    int64_t sum = 0;
    for (int64_t v = 0; v < p->size; v++) {
        int64_t u = partners[v];
        if (u <= v) continue;
        if (u >= p->size) return -1;
        int64_t low = p->start[v], high = p->start[v + 1], at = -1;
        while (low < high) { /* the last entry for u: a pair listed twice counts its later weight */
            int64_t middle = low + (high - low) / 2;
            if (p->other[middle] <= u) low = middle + 1;
            else high = middle;
        }
        if (low > p->start[v] && p->other[low - 1] == u) at = low - 1;
        if (at < 0) return -1;
        sum += p->weight[at];
    }
    *total = sum;
    return 0;
}

/* transposition._fixed and cardinality._augment over a graph in arrays, step for step (the same neighbours in
 * the same order, the same queue), so that every trial gives the same partners as the Python code. */
typedef struct {
    int64_t size;
    int64_t *start, *nb;          /* node v's neighbours: nb[start[v] .. start[v + 1]), in the edges' order */
    int64_t *base, *parent, *queue, *seen, *trial;
    char *outer, *in_blossom, *blocked;
    int64_t queue_cap, stamp;
} WmCard;

void wm_card_free(WmCard *c) {
    if (c == NULL) return;
    free(c->start); free(c->nb); free(c->base); free(c->parent); free(c->queue); free(c->seen); free(c->trial);
    free(c->outer); free(c->in_blossom); free(c->blocked);
    free(c);
}

/* The graph of the edges `ends` (u, v, u, v...) over nodes 0..size-1, each edge listed at both ends as
 * transposition.first_transposition's adjacency lists it. NULL when out of memory or for an end out of range. */
WmCard *wm_card_new(int64_t size, int64_t edges, const int64_t *ends) {
    if (size <= 0 || edges < 0 || size > INT64_MAX / 4 || edges > INT64_MAX / 4) return NULL;
    for (int64_t k = 0; k < 2 * edges; k++) if (ends[k] < 0 || ends[k] >= size) return NULL;
    WmCard *c = calloc(1, sizeof(WmCard));
    if (c == NULL) return NULL;
    c->size = size;
    c->queue_cap = 2 * size + 16;
    c->start = xcalloc(size + 1, sizeof(int64_t));
    c->nb = xcalloc(2 * edges, sizeof(int64_t));
    c->base = xcalloc(size, sizeof(int64_t));
    c->parent = xcalloc(size, sizeof(int64_t));
    c->queue = xcalloc(c->queue_cap, sizeof(int64_t));
    c->seen = xcalloc(size, sizeof(int64_t));
    c->trial = xcalloc(size, sizeof(int64_t));
    c->outer = xcalloc(size, 1);
    c->in_blossom = xcalloc(size, 1);
    c->blocked = xcalloc(size, 1);
    int64_t *fill = xcalloc(size, sizeof(int64_t));
    if (!c->start || !c->nb || !c->base || !c->parent || !c->queue || !c->seen || !c->trial || !c->outer
        || !c->in_blossom || !c->blocked || !fill) {
        free(fill);
        wm_card_free(c);
        return NULL;
    }
    for (int64_t k = 0; k < 2 * edges; k++) c->start[ends[k] + 1]++;
    for (int64_t v = 0; v < size; v++) c->start[v + 1] += c->start[v];
    for (int64_t v = 0; v < size; v++) fill[v] = c->start[v];
    for (int64_t k = 0; k < edges; k++) {
        int64_t u = ends[2 * k], v = ends[2 * k + 1];
        c->nb[fill[u]++] = v;
        c->nb[fill[v]++] = u;
    }
    free(fill);
    return c;
}

static void card_flip(int64_t *mate, const int64_t *parent, int64_t end) {
    int64_t node = end;
    while (node != NONE) {
        int64_t previous = parent[node];
        if (previous == NONE) break; /* not on a path the search made: cannot happen */
        int64_t following = mate[previous];
        mate[node] = previous;
        mate[previous] = node;
        node = following;
    }
}

static void card_release(int64_t *mate, const int64_t *parent, int64_t end) {
    int64_t inner = mate[end];
    mate[end] = mate[inner] = NONE;
    card_flip(mate, parent, inner);
}

static int64_t card_common_base(WmCard *c, const int64_t *mate, int64_t first, int64_t second) {
    int64_t *parent = c->parent, *base = c->base, stamp = ++c->stamp;
    int64_t node = first;
    for (;;) {
        node = base[node];
        c->seen[node] = stamp;
        if (mate[node] == NONE) break;
        node = parent[mate[node]];
    }
    node = second;
    for (;;) {
        node = base[node];
        if (c->seen[node] == stamp) return node;
        node = parent[mate[node]];
    }
}

static void card_mark(WmCard *c, const int64_t *mate, int64_t node, int64_t top, int64_t child) {
    int64_t *parent = c->parent, *base = c->base;
    while (base[node] != top) {
        c->in_blossom[base[node]] = 1;
        c->in_blossom[base[mate[node]]] = 1;
        parent[node] = child;
        child = mate[node];
        node = parent[mate[node]];
    }
}

static int card_push(WmCard *c, int64_t *count, int64_t node) {
    if (*count == c->queue_cap) {
        int64_t *grown = realloc(c->queue, (size_t)(2 * c->queue_cap) * sizeof(int64_t));
        if (grown == NULL) return -1;
        c->queue = grown;
        c->queue_cap *= 2;
    }
    c->queue[(*count)++] = node;
    return 0;
}

/* cardinality._augment: 1 when `root` was matched (the path flipped in `mate`), 0 when not, -1 out of memory. */
static int card_augment(WmCard *c, int64_t *mate, int64_t root, const char *optional) {
    int64_t size = c->size, *base = c->base, *parent = c->parent, count = 0, head = 0;
    char *outer = c->outer, *blocked = c->blocked;
    for (int64_t v = 0; v < size; v++) {
        base[v] = v;
        parent[v] = NONE;
        outer[v] = 0;
    }
    outer[root] = 1;
    if (card_push(c, &count, root) != 0) return -1;
    while (head < count) {
        int64_t node = c->queue[head++];
        for (int64_t q = c->start[node]; q < c->start[node + 1]; q++) {
            int64_t other = c->nb[q];
            if (base[node] == base[other] || mate[node] == other || blocked[other]) continue;
            if (other == root || (mate[other] != NONE && parent[mate[other]] != NONE)) {
                int64_t top = card_common_base(c, mate, node, other);
                memset(c->in_blossom, 0, (size_t)size);
                card_mark(c, mate, node, top, other);
                card_mark(c, mate, other, top, node);
                for (int64_t member = 0; member < size; member++) {
                    if (!c->in_blossom[base[member]]) continue;
                    base[member] = top;
                    if (!outer[member]) {
                        if (optional != NULL && optional[member]) {
                            card_release(mate, parent, member);
                            return 1;
                        }
                        outer[member] = 1;
                        if (card_push(c, &count, member) != 0) return -1;
                    }
                }
            } else if (parent[other] == NONE) {
                parent[other] = node;
                if (mate[other] == NONE) {
                    card_flip(mate, parent, other);
                    return 1;
                }
                if (optional != NULL && optional[mate[other]]) {
                    card_release(mate, parent, mate[other]);
                    return 1;
                }
                outer[mate[other]] = 1;
                if (card_push(c, &count, mate[other]) != 0) return -1;
            }
        }
    }
    return 0;
}

/* How many neighbours node v has (edges listed twice count twice), and the neighbours themselves into `out`
 * (wm_card_degree entries), in the edges' order. */
int64_t wm_card_degree(const WmCard *c, int64_t v) {
    return v < 0 || v >= c->size ? 0 : c->start[v + 1] - c->start[v];
}

int64_t wm_card_neighbours(const WmCard *c, int64_t v, int64_t *out) {
    int64_t count = wm_card_degree(c, v);
    if (count > 0) memcpy(out, c->nb + c->start[v], (size_t)count * sizeof(int64_t));
    return count;
}

/* transposition._fixed: `partners` changed to pair `node` with `other` and still cover every node that is not
 * `optional` (with keep_size, as many nodes as before), into trial_out; 1 when it can, 0 when not, -1 when
 * memory ran out. `blocked` (size bytes) is not changed. */
int wm_card_fixed(WmCard *c, const int64_t *partners, int64_t node, int64_t other, const char *optional,
                  const char *blocked, int keep_size, int64_t *trial_out) {
    int64_t size = c->size, *trial = c->trial, freed[2], freed_count = 0;
    if (node < 0 || node >= size || other < 0 || other >= size || node == other) return 0;
    memcpy(trial, partners, (size_t)size * sizeof(int64_t));
    memcpy(c->blocked, blocked, (size_t)size);
    int64_t ends[2] = {node, other};
    for (int i = 0; i < 2; i++) {
        int64_t v = ends[i];
        if (trial[v] != NONE) {
            freed[freed_count++] = trial[v];
            trial[trial[v]] = NONE;
        }
    }
    trial[node] = other;
    trial[other] = node;
    c->blocked[node] = c->blocked[other] = 1;
    int64_t grown = freed_count - (partners[node] == NONE) - (partners[other] == NONE);
    if (keep_size && grown > 0) {
        int found = 0;
        for (int64_t i = 0; i < freed_count && !found; i++) {
            if (trial[freed[i]] != NONE) continue;
            int status = card_augment(c, trial, freed[i], NULL);
            if (status < 0) return -1;
            found = status;
        }
        if (!found) return 0;
    }
    for (int64_t i = 0; i < freed_count; i++) {
        int64_t v = freed[i];
        if (optional[v] || trial[v] != NONE) continue;
        int status = card_augment(c, trial, v, optional);
        if (status < 0) return -1;
        if (!status) return 0;
    }
    memcpy(trial_out, trial, (size_t)size * sizeof(int64_t));
    return 1;
}

#define WM_CAT2(a, b) a##b
#define WM_CAT(a, b) WM_CAT2(a, b)
#define WM(name) WM_CAT(WM_PREFIX, name)
#define WM_BODY

#define wm_int int64_t
#define wm_uint uint64_t
#define WM_PREFIX wm_
#define WM_DUAL_LIMIT ((int64_t)1 << 60)
#include "weighted_native.c"
#undef wm_int
#undef wm_uint
#undef WM_PREFIX
#undef WM_DUAL_LIMIT

#ifdef __SIZEOF_INT128__
#define wm_int __int128
#define wm_uint unsigned __int128
#define WM_PREFIX wm128_
#define WM_DUAL_LIMIT ((__int128)1 << 124)
#include "weighted_native.c"
#undef wm_int
#undef wm_uint
#undef WM_PREFIX
#undef WM_DUAL_LIMIT

/* The 128-bit `values` as int64 into `out`; 0, or -1 when one lies past +-2 ** 58 (weighted_native.WEIGHT_BITS). */
int wm_narrow128(const __int128 *values, int64_t count, int64_t *out) {
    const __int128 limit = (__int128)1 << 58;
    for (int64_t i = 0; i < count; i++) {
        __int128 value;
        memcpy(&value, &values[i], sizeof value);
        if (value >= limit || value <= -limit) return -1;
        out[i] = (int64_t)value;
    }
    return 0;
}
#endif

#else /* the body, once a machine integer */

typedef struct {
    int64_t size, edges;
    int64_t *endpoint;  /* 2 * edges */
    wm_int *weight;     /* edges */
    int64_t *nb_start;  /* size + 1: node v's far endpoints are nb[nb_start[v] .. nb_start[v + 1]) */
    int64_t *nb;
    int64_t *mate, *label, *label_end, *in_blossom, *parent, *base, *best_edge;
    wm_int *dual;
    int64_t **children, **child_ends, *child_count, *child_cap;
    int64_t **best_edges, *best_count, *best_cap; /* best_count < 0: None */
    int64_t *unused, unused_count;
    char *allowed;
    int64_t *queue, queue_count, queue_cap;
    int64_t *leaf_buf, *stack_buf, *leaf_buf2; /* 2 * size each */
    int64_t *path_buf, *ends_buf, *best_to;
    int failed;
} WM(Matcher);

static wm_int WM(floor_half)(wm_int d) { return d >= 0 ? d / 2 : -((-d + 1) / 2); }

void WM(free)(WM(Matcher) *m) {
    if (m == NULL) return;
    int64_t count = 2 * m->size;
    if (m->children) for (int64_t b = 0; b < count; b++) free(m->children[b]);
    if (m->child_ends) for (int64_t b = 0; b < count; b++) free(m->child_ends[b]);
    if (m->best_edges) for (int64_t b = 0; b < count; b++) free(m->best_edges[b]);
    free(m->children); free(m->child_ends); free(m->child_count); free(m->child_cap);
    free(m->best_edges); free(m->best_count); free(m->best_cap);
    free(m->endpoint); free(m->weight); free(m->nb_start); free(m->nb);
    free(m->mate); free(m->label); free(m->label_end); free(m->in_blossom); free(m->parent); free(m->base);
    free(m->best_edge); free(m->dual); free(m->unused); free(m->allowed); free(m->queue);
    free(m->leaf_buf); free(m->stack_buf); free(m->leaf_buf2); free(m->path_buf); free(m->ends_buf);
    free(m->best_to);
    free(m);
}

/* ends: 2 * edges node numbers (u, v of each edge); weights: edges. NULL when out of memory, when an edge
 * is not between two distinct nodes of 0..size-1, or when size or edges is past INT64_MAX / 4 (2 * size + 16
 * and 2 * edges must not overflow; no such array could be allocated anyway). */
WM(Matcher) *WM(new)(int64_t size, int64_t edges, const int64_t *ends, const wm_int *weights) {
    if (size <= 0 || edges < 0 || size > INT64_MAX / 4 || edges > INT64_MAX / 4) return NULL;
    for (int64_t k = 0; k < edges; k++) {
        int64_t u = ends[2 * k], v = ends[2 * k + 1];
        if (u < 0 || u >= size || v < 0 || v >= size || u == v) return NULL;
    }
    WM(Matcher) *m = calloc(1, sizeof(WM(Matcher)));
    if (m == NULL) return NULL;
    int64_t count = 2 * size;
    m->size = size;
    m->edges = edges;
    m->endpoint = xcalloc(2 * edges, sizeof(int64_t));
    m->weight = xcalloc(edges, sizeof(wm_int));
    m->nb_start = xcalloc(size + 1, sizeof(int64_t));
    m->nb = xcalloc(2 * edges, sizeof(int64_t));
    m->mate = xcalloc(size, sizeof(int64_t));
    m->label = xcalloc(count, sizeof(int64_t));
    m->label_end = xcalloc(count, sizeof(int64_t));
    m->in_blossom = xcalloc(size, sizeof(int64_t));
    m->parent = xcalloc(count, sizeof(int64_t));
    m->base = xcalloc(count, sizeof(int64_t));
    m->best_edge = xcalloc(count, sizeof(int64_t));
    m->dual = xcalloc(count, sizeof(wm_int));
    m->children = xcalloc(count, sizeof(int64_t *));
    m->child_ends = xcalloc(count, sizeof(int64_t *));
    m->child_count = xcalloc(count, sizeof(int64_t));
    m->child_cap = xcalloc(count, sizeof(int64_t));
    m->best_edges = xcalloc(count, sizeof(int64_t *));
    m->best_count = xcalloc(count, sizeof(int64_t));
    m->best_cap = xcalloc(count, sizeof(int64_t));
    m->unused = xcalloc(size, sizeof(int64_t));
    m->allowed = xcalloc(edges, 1);
    m->queue_cap = count + 16;
    m->queue = xcalloc(m->queue_cap, sizeof(int64_t));
    m->leaf_buf = xcalloc(count, sizeof(int64_t));
    m->leaf_buf2 = xcalloc(count, sizeof(int64_t));
    m->stack_buf = xcalloc(count + 1, sizeof(int64_t));
    m->path_buf = xcalloc(count + 1, sizeof(int64_t));
    m->ends_buf = xcalloc(count + 1, sizeof(int64_t));
    m->best_to = xcalloc(count, sizeof(int64_t));
    if (!m->endpoint || !m->weight || !m->nb_start || !m->nb || !m->mate || !m->label || !m->label_end
        || !m->in_blossom || !m->parent || !m->base || !m->best_edge || !m->dual || !m->children
        || !m->child_ends || !m->child_count || !m->child_cap || !m->best_edges || !m->best_count
        || !m->best_cap || !m->unused || !m->allowed || !m->queue || !m->leaf_buf || !m->leaf_buf2
        || !m->stack_buf || !m->path_buf || !m->ends_buf || !m->best_to) {
        WM(free)(m);
        return NULL;
    }
    wm_int top = 0;
    for (int64_t k = 0; k < edges; k++) {
        m->endpoint[2 * k] = ends[2 * k];
        m->endpoint[2 * k + 1] = ends[2 * k + 1];
        memcpy(&m->weight[k], &weights[k], sizeof(wm_int)); /* the caller's buffer may be less aligned */
        m->nb_start[ends[2 * k] + 1]++;
        m->nb_start[ends[2 * k + 1] + 1]++;
        if (m->weight[k] > top) top = m->weight[k];
    }
    for (int64_t v = 0; v < size; v++) m->nb_start[v + 1] += m->nb_start[v];
    int64_t *fill = xcalloc(size, sizeof(int64_t));
    if (fill == NULL) { WM(free)(m); return NULL; }
    for (int64_t k = 0; k < edges; k++) {
        int64_t u = ends[2 * k], v = ends[2 * k + 1];
        m->nb[m->nb_start[u] + fill[u]++] = 2 * k + 1;
        m->nb[m->nb_start[v] + fill[v]++] = 2 * k;
    }
    free(fill);
    for (int64_t v = 0; v < size; v++) {
        m->mate[v] = NONE;
        m->in_blossom[v] = v;
        m->base[v] = v;
        m->dual[v] = top;
    }
    for (int64_t b = 0; b < count; b++) {
        m->label_end[b] = NONE;
        m->parent[b] = NONE;
        m->best_edge[b] = NONE;
        m->best_count[b] = -1;
        if (b >= size) m->base[b] = NONE;
    }
    /* weighted.py's list(range(size, count)), popped from its end */
    for (int64_t i = 0; i < size; i++) m->unused[i] = size + i;
    m->unused_count = size;
    return m;
}

static inline wm_int WM(slack)(const WM(Matcher) *m, int64_t k) {
    return m->dual[m->endpoint[2 * k]] + m->dual[m->endpoint[2 * k + 1]] - 2 * m->weight[k];
}

/* The leaves of b in weighted.py's order (a stack, children pushed in order), into out; their count. */
static int64_t WM(leaves_of)(WM(Matcher) *m, int64_t b, int64_t *out) {
    if (b < m->size) { out[0] = b; return 1; }
    int64_t found = 0, top = 0;
    int64_t *stack = m->stack_buf;
    stack[top++] = b;
    while (top > 0) {
        int64_t t = stack[--top];
        if (t < m->size) {
            out[found++] = t;
        } else {
            for (int64_t i = 0; i < m->child_count[t]; i++) stack[top++] = m->children[t][i];
        }
    }
    return found;
}

int64_t WM(leaves)(WM(Matcher) *m, int64_t b, int64_t *out) { return WM(leaves_of)(m, b, out); }

static int WM(queue_push)(WM(Matcher) *m, int64_t v) {
    if (m->queue_count == m->queue_cap) {
        int64_t cap = 2 * m->queue_cap;
        int64_t *grown = realloc(m->queue, (size_t)cap * sizeof(int64_t));
        if (grown == NULL) { m->failed = 1; return 0; }
        m->queue = grown;
        m->queue_cap = cap;
    }
    m->queue[m->queue_count++] = v;
    return 1;
}

static void WM(assign_label)(WM(Matcher) *m, int64_t w, int64_t t, int64_t p) {
    while (1) {
        int64_t b = m->in_blossom[w];
        m->label[w] = m->label[b] = t;
        m->label_end[w] = m->label_end[b] = p;
        m->best_edge[w] = m->best_edge[b] = NONE;
        if (t == 1) {
            int64_t n = WM(leaves_of)(m, b, m->leaf_buf);
            for (int64_t i = 0; i < n; i++) WM(queue_push)(m, m->leaf_buf[i]);
            return;
        }
        int64_t mate_end = m->mate[m->base[b]];
        w = m->endpoint[mate_end];
        t = 1;
        p = mate_end ^ 1;
    }
}

static int64_t WM(scan_blossom)(WM(Matcher) *m, int64_t v, int64_t w) {
    int64_t *path = m->path_buf, count = 0, base = NONE;
    while (v != NONE || w != NONE) {
        int64_t b = m->in_blossom[v];
        if (m->label[b] & 4) {
            base = m->base[b];
            break;
        }
        path[count++] = b;
        m->label[b] = 5;
        if (m->label_end[b] == NONE) {
            v = NONE;
        } else {
            v = m->endpoint[m->label_end[b]];
            b = m->in_blossom[v];
            v = m->endpoint[m->label_end[b]];
        }
        if (w != NONE) { int64_t x = v; v = w; w = x; }
    }
    for (int64_t i = 0; i < count; i++) m->label[path[i]] = 1;
    return base;
}

static int WM(set_children)(WM(Matcher) *m, int64_t b, const int64_t *path, const int64_t *ends, int64_t count) {
    if (m->child_cap[b] < count) {
        int64_t *c = realloc(m->children[b], (size_t)count * sizeof(int64_t));
        if (c == NULL) { m->failed = 1; return 0; }
        m->children[b] = c;
        int64_t *e = realloc(m->child_ends[b], (size_t)count * sizeof(int64_t));
        if (e == NULL) { m->failed = 1; return 0; }
        m->child_ends[b] = e;
        m->child_cap[b] = count;
    }
    memcpy(m->children[b], path, (size_t)count * sizeof(int64_t));
    memcpy(m->child_ends[b], ends, (size_t)count * sizeof(int64_t));
    m->child_count[b] = count;
    return 1;
}

static void WM(add_blossom)(WM(Matcher) *m, int64_t base, int64_t k) {
    int64_t v = m->endpoint[2 * k], w = m->endpoint[2 * k + 1];
    int64_t bb = m->in_blossom[base], bv = m->in_blossom[v], bw = m->in_blossom[w];
    int64_t b = m->unused[--m->unused_count];
    m->base[b] = base;
    m->parent[b] = NONE;
    m->parent[bb] = b;
    int64_t *path = m->path_buf, *ends = m->ends_buf, count = 0;
    while (bv != bb) {
        m->parent[bv] = b;
        path[count] = bv;
        ends[count] = m->label_end[bv];
        count++;
        v = m->endpoint[m->label_end[bv]];
        bv = m->in_blossom[v];
    }
    path[count] = bb;
    ends[count] = 0; /* placeholder: reversed away below */
    /* path.append(bb); path.reverse(); ends.reverse() (ends had count entries) */
    for (int64_t i = 0, j = count; i < j; i++, j--) { int64_t x = path[i]; path[i] = path[j]; path[j] = x; }
    for (int64_t i = 0, j = count - 1; i < j; i++, j--) { int64_t x = ends[i]; ends[i] = ends[j]; ends[j] = x; }
    int64_t path_count = count + 1, ends_count = count;
    ends[ends_count++] = 2 * k;
    while (bw != bb) {
        m->parent[bw] = b;
        path[path_count++] = bw;
        ends[ends_count++] = m->label_end[bw] ^ 1;
        w = m->endpoint[m->label_end[bw]];
        bw = m->in_blossom[w];
    }
    if (!WM(set_children)(m, b, path, ends, path_count)) return;
    m->label[b] = 1;
    m->label_end[b] = m->label_end[bb];
    m->dual[b] = 0;
    int64_t n = WM(leaves_of)(m, b, m->leaf_buf);
    for (int64_t i = 0; i < n; i++) {
        int64_t leaf = m->leaf_buf[i];
        if (m->label[m->in_blossom[leaf]] == 2) WM(queue_push)(m, leaf);
        m->in_blossom[leaf] = b;
    }
    int64_t count2 = 2 * m->size;
    int64_t *best_to = m->best_to;
    for (int64_t i = 0; i < count2; i++) best_to[i] = NONE;
    const int64_t *children = m->children[b];
    for (int64_t c = 0; c < path_count; c++) {
        int64_t child = children[c];
        if (m->best_count[child] < 0) {
            int64_t leaf_count = WM(leaves_of)(m, child, m->leaf_buf2);
            for (int64_t li = 0; li < leaf_count; li++) {
                int64_t leaf = m->leaf_buf2[li];
                for (int64_t q = m->nb_start[leaf]; q < m->nb_start[leaf + 1]; q++) {
                    int64_t edge = m->nb[q] >> 1;
                    int64_t i = m->endpoint[2 * edge], j = m->endpoint[2 * edge + 1];
                    if (m->in_blossom[j] == b) { int64_t x = i; i = j; j = x; }
                    int64_t bj = m->in_blossom[j];
                    if (bj != b && m->label[bj] == 1) {
                        int64_t held = best_to[bj];
                        if (held == NONE || WM(slack)(m, edge) < WM(slack)(m, held)) best_to[bj] = edge;
                    }
                }
            }
        } else {
            const int64_t *known = m->best_edges[child];
            for (int64_t q = 0; q < m->best_count[child]; q++) {
                int64_t edge = known[q];
                int64_t i = m->endpoint[2 * edge], j = m->endpoint[2 * edge + 1];
                if (m->in_blossom[j] == b) { int64_t x = i; i = j; j = x; }
                int64_t bj = m->in_blossom[j];
                if (bj != b && m->label[bj] == 1) {
                    int64_t held = best_to[bj];
                    if (held == NONE || WM(slack)(m, edge) < WM(slack)(m, held)) best_to[bj] = edge;
                }
            }
        }
        m->best_count[child] = -1;
        m->best_edge[child] = NONE;
    }
    int64_t kept = 0;
    for (int64_t i = 0; i < count2; i++) if (best_to[i] != NONE) kept++;
    if (m->best_cap[b] < kept) {
        int64_t *grown = realloc(m->best_edges[b], (size_t)kept * sizeof(int64_t));
        if (grown == NULL) { m->failed = 1; return; }
        m->best_edges[b] = grown;
        m->best_cap[b] = kept;
    }
    int64_t *list = m->best_edges[b], at = 0, best = NONE;
    for (int64_t i = 0; i < count2; i++) if (best_to[i] != NONE) list[at++] = best_to[i];
    m->best_count[b] = kept;
    for (int64_t i = 0; i < kept; i++) {
        int64_t edge = list[i];
        if (best == NONE || WM(slack)(m, edge) < WM(slack)(m, best)) best = edge;
    }
    m->best_edge[b] = best;
}

static void WM(expand_blossom)(WM(Matcher) *m, int64_t b, int end_stage) {
    int64_t len = m->child_count[b];
    for (int64_t c = 0; c < len; c++) {
        int64_t s = m->children[b][c];
        m->parent[s] = NONE;
        if (s < m->size) {
            m->in_blossom[s] = s;
        } else if (end_stage && m->dual[s] == 0) {
            WM(expand_blossom)(m, s, end_stage);
        } else {
            int64_t n = WM(leaves_of)(m, s, m->leaf_buf);
            for (int64_t i = 0; i < n; i++) m->in_blossom[m->leaf_buf[i]] = s;
        }
    }
    if (!end_stage && m->label[b] == 2) {
        int64_t *children = m->children[b], *ends = m->child_ends[b];
        int64_t entry = m->in_blossom[m->endpoint[m->label_end[b] ^ 1]];
        int64_t j = 0, step, trick;
        while (children[j] != entry) j++;
        if (j & 1) {
            j -= len;
            step = 1;
            trick = 0;
        } else {
            step = -1;
            trick = 1;
        }
        int64_t p = m->label_end[b];
        while (j != 0) {
            m->label[m->endpoint[p ^ 1]] = 0;
            m->label[m->endpoint[ends[wrap(j - trick, len)] ^ trick ^ 1]] = 0;
            WM(assign_label)(m, m->endpoint[p ^ 1], 2, p);
            m->allowed[ends[wrap(j - trick, len)] / 2] = 1;
            j += step;
            p = ends[wrap(j - trick, len)] ^ trick;
            m->allowed[p / 2] = 1;
            j += step;
        }
        int64_t bv = children[wrap(j, len)];
        m->label[m->endpoint[p ^ 1]] = m->label[bv] = 2;
        m->label_end[m->endpoint[p ^ 1]] = m->label_end[bv] = p;
        m->best_edge[bv] = NONE;
        j += step;
        while (children[wrap(j, len)] != entry) {
            bv = children[wrap(j, len)];
            if (m->label[bv] == 1) {
                j += step;
                continue;
            }
            int64_t reached = NONE;
            int64_t n = WM(leaves_of)(m, bv, m->leaf_buf);
            for (int64_t i = 0; i < n; i++) {
                if (m->label[m->leaf_buf[i]] != 0) {
                    reached = m->leaf_buf[i];
                    break;
                }
            }
            if (reached != NONE) {
                m->label[reached] = 0;
                m->label[m->endpoint[m->mate[m->base[bv]]]] = 0;
                WM(assign_label)(m, reached, 2, m->label_end[reached]);
            }
            j += step;
        }
    }
    m->label[b] = m->label_end[b] = NONE;
    m->child_count[b] = 0;
    m->base[b] = NONE;
    m->best_count[b] = -1;
    m->best_edge[b] = NONE;
    m->unused[m->unused_count++] = b;
}

static void WM(augment_blossom)(WM(Matcher) *m, int64_t b, int64_t v) {
    int64_t t = v;
    while (m->parent[t] != b) t = m->parent[t];
    if (t >= m->size) WM(augment_blossom)(m, t, v);
    int64_t len = m->child_count[b];
    int64_t *children = m->children[b], *ends = m->child_ends[b];
    int64_t i = 0;
    while (children[i] != t) i++;
    int64_t j = i, step, trick;
    if (i & 1) {
        j -= len;
        step = 1;
        trick = 0;
    } else {
        step = -1;
        trick = 1;
    }
    while (j != 0) {
        j += step;
        t = children[wrap(j, len)];
        int64_t p = ends[wrap(j - trick, len)] ^ trick;
        if (t >= m->size) WM(augment_blossom)(m, t, m->endpoint[p]);
        j += step;
        t = children[wrap(j, len)];
        if (t >= m->size) WM(augment_blossom)(m, t, m->endpoint[p ^ 1]);
        m->mate[m->endpoint[p]] = p ^ 1;
        m->mate[m->endpoint[p ^ 1]] = p;
    }
    /* rotate left by i: children[i:] + children[:i] */
    if (i > 0) {
        int64_t *tmp = m->ends_buf; /* not in use while augmenting */
        memcpy(tmp, children, (size_t)len * sizeof(int64_t));
        for (int64_t c = 0; c < len; c++) children[c] = tmp[(c + i) % len];
        memcpy(tmp, ends, (size_t)len * sizeof(int64_t));
        for (int64_t c = 0; c < len; c++) ends[c] = tmp[(c + i) % len];
    }
    m->base[b] = m->base[children[0]];
}

static void WM(augment)(WM(Matcher) *m, int64_t k) {
    for (int side = 0; side < 2; side++) {
        int64_t s = side == 0 ? m->endpoint[2 * k] : m->endpoint[2 * k + 1];
        int64_t p = side == 0 ? 2 * k + 1 : 2 * k;
        while (1) {
            int64_t bs = m->in_blossom[s];
            if (bs >= m->size) WM(augment_blossom)(m, bs, s);
            m->mate[s] = p;
            if (m->label_end[bs] == NONE) break;
            int64_t t = m->endpoint[m->label_end[bs]];
            int64_t bt = m->in_blossom[t];
            s = m->endpoint[m->label_end[bt]];
            int64_t j = m->endpoint[m->label_end[bt] ^ 1];
            if (bt >= m->size) WM(augment_blossom)(m, bt, j);
            m->mate[j] = m->label_end[bt];
            p = m->label_end[bt] ^ 1;
        }
    }
}

static int WM(grow)(WM(Matcher) *m) {
    int64_t *label = m->label, *in_blossom = m->in_blossom, *endpoint = m->endpoint;
    wm_int *dual = m->dual, *weight = m->weight;
    int64_t *best_edge = m->best_edge;
    char *allowed = m->allowed;
    while (m->queue_count > 0 && !m->failed) {
        int64_t v = m->queue[--m->queue_count];
        int64_t bv = in_blossom[v];
        for (int64_t q = m->nb_start[v]; q < m->nb_start[v + 1]; q++) {
            int64_t p = m->nb[q];
            int64_t k = p >> 1;
            int64_t w = endpoint[p];
            int64_t bw = in_blossom[w];
            if (bv == bw) continue;
            wm_int sl = 0;
            if (!allowed[k]) {
                sl = dual[v] + dual[w] - 2 * weight[k];
                if (sl <= 0) allowed[k] = 1;
            }
            if (allowed[k]) {
                if (label[bw] == 0) {
                    WM(assign_label)(m, w, 2, p ^ 1);
                } else if (label[bw] == 1) {
                    int64_t base = WM(scan_blossom)(m, v, w);
                    if (base >= 0) {
                        WM(add_blossom)(m, base, k);
                        if (m->failed) return 0; /* out of memory: the blossom is half made, stop before using it */
                        bv = in_blossom[v];
                    } else {
                        WM(augment)(m, k);
                        return 1;
                    }
                } else if (label[w] == 0) {
                    label[w] = 2;
                    m->label_end[w] = p ^ 1;
                }
            } else if (label[bw] == 1) {
                int64_t held = best_edge[bv];
                if (held == NONE || sl < WM(slack)(m, held)) best_edge[bv] = k;
            } else if (label[w] == 0) {
                int64_t held = best_edge[w];
                if (held == NONE || sl < WM(slack)(m, held)) best_edge[w] = k;
            }
        }
    }
    return 0;
}

typedef struct {
    wm_int weight;
    int64_t index;
} WM(Ranked);

/* weighted.py's sorted(range(edges), key=-weight): heaviest first, ties in the edges' order (a stable sort) */
static int WM(by_weight)(const void *a, const void *b) {
    const WM(Ranked) *x = a, *y = b;
    if (x->weight != y->weight) return x->weight > y->weight ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index ? 1 : 0);
}

/* by_weight's order by a most-significant-digit radix sort: the edges are counted into buckets by how far
 * below the heaviest weight among them their weight is, by the leading bits of that distance (as many bits as
 * the edges need, up to 16), each bucket then sorted the same way among its own weights, and a small one by
 * insertion. Counting is stable and the edges come in their order, so ties keep it. A phase's 3 million
 * weights spread over 120 bits take two or three passes, where qsort compared each a couple of dozen times. */
#define WM_RADIX_BITS 16
#define WM_RADIX_SMALL 32

static void WM(sort_segment)(WM(Ranked) *a, WM(Ranked) *spare, int64_t n, int64_t *counts, int depth) {
    if (n < WM_RADIX_SMALL) {
        for (int64_t i = 1; i < n; i++) {
            WM(Ranked) item = a[i];
            int64_t j = i;
            while (j > 0 && WM(by_weight)(&a[j - 1], &item) > 0) {
                a[j] = a[j - 1];
                j--;
            }
            a[j] = item;
        }
        return;
    }
    wm_int top = a[0].weight, bottom = a[0].weight;
    for (int64_t i = 1; i < n; i++) {
        if (a[i].weight > top) top = a[i].weight;
        if (a[i].weight < bottom) bottom = a[i].weight;
    }
    wm_uint range = (wm_uint)top - (wm_uint)bottom;
    if (range == 0) return; /* one weight: already in the edges' order */
    int range_bits = 0, digit_bits = 0;
    while (range_bits < (int)(8 * sizeof(wm_int)) && (range >> range_bits) != 0) range_bits++;
    while (digit_bits < WM_RADIX_BITS && ((int64_t)1 << digit_bits) < n) digit_bits++;
    int shift = range_bits > digit_bits ? range_bits - digit_bits : 0;
    int64_t buckets = (int64_t)(range >> shift) + 1, *count = counts + depth * (((int64_t)1 << WM_RADIX_BITS) + 1);
    memset(count, 0, (size_t)(buckets + 1) * sizeof(int64_t));
    for (int64_t i = 0; i < n; i++) count[(int64_t)(((wm_uint)top - (wm_uint)a[i].weight) >> shift) + 1]++;
    for (int64_t d = 0; d < buckets; d++) count[d + 1] += count[d]; /* count[d]: where bucket d starts */
    for (int64_t i = 0; i < n; i++) spare[count[(int64_t)(((wm_uint)top - (wm_uint)a[i].weight) >> shift)]++] = a[i];
    memcpy(a, spare, (size_t)n * sizeof(WM(Ranked)));
    if (shift == 0) return; /* each bucket holds one weight */
    for (int64_t d = 0, start = 0; d < buckets; d++) { /* count[d] is now where bucket d ends */
        if (count[d] - start > 1) WM(sort_segment)(a + start, spare + start, count[d] - start, counts, depth + 1);
        start = count[d];
    }
}

/* 0, or -1 when memory ran out (then nothing changed). */
static int WM(sort_by_weight)(WM(Ranked) *order, int64_t count) {
    int levels = (int)(8 * sizeof(wm_int)) / 4 + 2; /* each level's range is at most 4 bits shorter than its parent's */
    int64_t *counts = xcalloc((size_t)levels * (((size_t)1 << WM_RADIX_BITS) + 1), sizeof(int64_t));
    WM(Ranked) *spare = xcalloc(count, sizeof(WM(Ranked)));
    if (counts == NULL || spare == NULL) {
        free(counts);
        free(spare);
        return -1;
    }
    WM(sort_segment)(order, spare, count, counts, 0);
    free(counts);
    free(spare);
    return 0;
}

/* weighted.py's _Matcher.rebalance: the new bound (at most target), or -1 with every dual as it was; -2 when
 * memory ran out (nothing changed). */
static wm_int WM(rebalance)(WM(Matcher) *m, const char *matched, wm_int target) {
    int64_t size = m->size, *endpoint = m->endpoint, *mate = m->mate;
    wm_int *weight = m->weight, *dual = m->dual;
    wm_int *reach = xcalloc(size, sizeof(wm_int));
    int64_t *giver = xcalloc(size, sizeof(int64_t)), *taker = xcalloc(size, sizeof(int64_t));
    wm_int *amount = xcalloc(size, sizeof(wm_int));
    if (reach == NULL || giver == NULL || taker == NULL || amount == NULL) {
        free(reach); free(giver); free(taker); free(amount);
        return -2;
    }
    for (int64_t x = 0; x < size; x++) {
        if (!matched[x]) continue;
        for (int64_t q = m->nb_start[x]; q < m->nb_start[x + 1]; q++) {
            int64_t p = m->nb[q];
            if (!matched[endpoint[p]] && 2 * weight[p >> 1] > reach[x]) reach[x] = 2 * weight[p >> 1];
        }
    }
    int64_t moves = 0;
    int failed = 0;
    for (int64_t x = 0; x < size && !failed; x++) {
        if (!matched[x]) continue;
        int64_t y = endpoint[mate[x]];
        if (y < x) continue;
        wm_int need_x = reach[x] - target > target ? reach[x] - target : target;
        wm_int need_y = reach[y] - target > target ? reach[y] - target : target;
        if (need_x + need_y > dual[x] + dual[y]) {
            failed = 1;
        } else if (dual[x] < need_x) {
            giver[moves] = y; taker[moves] = x; amount[moves++] = need_x - dual[x];
        } else if (dual[y] < need_y) {
            giver[moves] = x; taker[moves] = y; amount[moves++] = need_y - dual[y];
        }
    }
    if (!failed) {
        for (int64_t i = 0; i < moves; i++) {
            dual[taker[i]] += amount[i];
            dual[giver[i]] -= amount[i];
        }
        for (int64_t i = 0; i < moves && !failed; i++) {
            int64_t g = giver[i];
            for (int64_t q = m->nb_start[g]; q < m->nb_start[g + 1]; q++) {
                int64_t p = m->nb[q];
                if (matched[endpoint[p]] && dual[g] + dual[endpoint[p]] < 2 * weight[p >> 1]) {
                    failed = 1;
                    break;
                }
            }
        }
        if (failed) {
            for (int64_t i = 0; i < moves; i++) {
                dual[taker[i]] -= amount[i];
                dual[giver[i]] += amount[i];
            }
        }
    }
    wm_int bound = 0;
    if (!failed) {
        for (int64_t x = 0; x < size; x++) {
            if (matched[x] && reach[x] - dual[x] > bound) bound = reach[x] - dual[x];
        }
    }
    free(reach); free(giver); free(taker); free(amount);
    return failed ? -1 : bound;
}

static int WM(greedy_start)(WM(Matcher) *m) {
    int64_t size = m->size, edges = m->edges;
    wm_int *weight = m->weight, *dual = m->dual;
    int64_t *endpoint = m->endpoint;
    wm_int level = dual[0], bound = 0;
    int tries = GREEDY_REBALANCES;
    char *matched = xcalloc(size, 1);
    WM(Ranked) *order = xcalloc(edges, sizeof(WM(Ranked)));
    if (matched == NULL || order == NULL) { free(matched); free(order); return 0; }
    for (int64_t k = 0; k < edges; k++) {
        order[k].weight = weight[k];
        order[k].index = k;
    }
    if (WM(sort_by_weight)(order, edges) != 0) qsort(order, (size_t)edges, sizeof(WM(Ranked)), WM(by_weight));
    for (int64_t i = 0; i < edges; i++) {
        int64_t k = order[i].index;
        wm_int w = weight[k];
        int64_t u = endpoint[2 * k], v = endpoint[2 * k + 1];
        if (matched[u] || matched[v]) continue;
        if (w < level) {
            if (w <= bound) {
                if (w <= 0 || tries == 0) {
                    level = bound;
                    break;
                }
                tries--;
                wm_int settled = WM(rebalance)(m, matched, w);
                if (settled == -2) { free(matched); free(order); return 0; }
                if (settled < 0) {
                    level = bound;
                    break;
                }
                bound = settled;
            }
            level = w;
        }
        m->mate[u] = 2 * k + 1;
        m->mate[v] = 2 * k;
        matched[u] = matched[v] = 1;
        dual[u] = dual[v] = level;
        for (int side = 0; side < 2; side++) {
            int64_t x = side == 0 ? u : v;
            for (int64_t q = m->nb_start[x]; q < m->nb_start[x + 1]; q++) {
                int64_t p = m->nb[q];
                if (!matched[endpoint[p]] && 2 * weight[p >> 1] - level > bound) bound = 2 * weight[p >> 1] - level;
            }
        }
    }
    for (int64_t v = 0; v < size; v++) if (!matched[v]) dual[v] = level;
    free(matched);
    free(order);
    return 1;
}

/* weighted.py's _Matcher.match_tight */
static void WM(match_tight)(WM(Matcher) *m) {
    int64_t size = m->size, *mate = m->mate, *endpoint = m->endpoint, *in_blossom = m->in_blossom;
    for (int64_t u = 0; u < size; u++) {
        if (mate[u] != NONE || in_blossom[u] != u) continue;
        for (int64_t q = m->nb_start[u]; q < m->nb_start[u + 1]; q++) {
            int64_t p = m->nb[q], v = endpoint[p];
            if (mate[v] == NONE && in_blossom[v] == v && WM(slack)(m, p >> 1) == 0) {
                mate[u] = p;
                mate[v] = p ^ 1;
                break;
            }
        }
    }
}

/* 1: the optimum is reached; 0: go on; -1: a dual left +-WM_DUAL_LIMIT. */
static int WM(adjust)(WM(Matcher) *m, int maxcardinality) {
    int64_t size = m->size, *label = m->label, *in_blossom = m->in_blossom;
    wm_int *dual = m->dual;
    int kind = 0;
    wm_int delta = 0;
    int64_t edge = NONE, blossom = NONE;
    if (!maxcardinality) {
        kind = 1;
        delta = dual[0];
        for (int64_t v = 1; v < size; v++) if (dual[v] < delta) delta = dual[v];
    }
    for (int64_t v = 0; v < size; v++) {
        if (label[in_blossom[v]] == 0 && m->best_edge[v] != NONE) {
            wm_int d = WM(slack)(m, m->best_edge[v]);
            if (kind == 0 || d < delta) { kind = 2; delta = d; edge = m->best_edge[v]; }
        }
    }
    for (int64_t b = 0; b < 2 * size; b++) {
        if (m->parent[b] == NONE && label[b] == 1 && m->best_edge[b] != NONE) {
            wm_int d = WM(floor_half)(WM(slack)(m, m->best_edge[b]));
            if (kind == 0 || d < delta) { kind = 3; delta = d; edge = m->best_edge[b]; }
        }
    }
    for (int64_t b = size; b < 2 * size; b++) {
        if (m->base[b] >= 0 && m->parent[b] == NONE && label[b] == 2 && (kind == 0 || dual[b] < delta)) {
            kind = 4; delta = dual[b]; blossom = b;
        }
    }
    if (kind == 0) {
        kind = 1;
        delta = dual[0];
        for (int64_t v = 1; v < size; v++) if (dual[v] < delta) delta = dual[v];
        if (delta < 0) delta = 0;
    }
    if (delta > WM_DUAL_LIMIT || delta < -WM_DUAL_LIMIT) return -1;
    for (int64_t v = 0; v < size; v++) {
        int64_t top_label = label[in_blossom[v]];
        if (top_label == 1) dual[v] -= delta;
        else if (top_label == 2) dual[v] += delta;
        if (dual[v] > WM_DUAL_LIMIT || dual[v] < -WM_DUAL_LIMIT) return -1;
    }
    for (int64_t b = size; b < 2 * size; b++) {
        if (m->base[b] >= 0 && m->parent[b] == NONE) {
            if (label[b] == 1) dual[b] += delta;
            else if (label[b] == 2) dual[b] -= delta;
            if (dual[b] > WM_DUAL_LIMIT || dual[b] < -WM_DUAL_LIMIT) return -1;
        }
    }
    if (kind == 1) return 1;
    if (kind == 2) {
        m->allowed[edge] = 1;
        int64_t i = m->endpoint[2 * edge], j = m->endpoint[2 * edge + 1];
        if (label[in_blossom[i]] == 0) i = j;
        WM(queue_push)(m, i);
    } else if (kind == 3) {
        m->allowed[edge] = 1;
        WM(queue_push)(m, m->endpoint[2 * edge]);
    } else {
        WM(expand_blossom)(m, blossom, 0);
    }
    return 0;
}

/* Runs weighted.py's solve; mate_out gets the partners (NONE when unmatched). 0 on success, -1 when a dual left
 * the bounds or memory ran out (the caller then falls back to weighted.py). */
int WM(solve)(WM(Matcher) *m, int maxcardinality, int64_t *mate_out) {
    int64_t size = m->size;
    if (!maxcardinality && !WM(greedy_start)(m)) return -1;
    int moved = 0; /* whether the last stage moved the duals */
    for (int64_t stage = 0; stage < size; stage++) {
        if (moved) WM(match_tight)(m);
        for (int64_t b = 0; b < 2 * size; b++) {
            m->label[b] = 0;
            m->best_edge[b] = NONE;
        }
        for (int64_t b = size; b < 2 * size; b++) m->best_count[b] = -1;
        memset(m->allowed, 0, (size_t)m->edges);
        m->queue_count = 0;
        for (int64_t v = 0; v < size; v++) {
            if (m->mate[v] == NONE && m->label[m->in_blossom[v]] == 0) WM(assign_label)(m, v, 1, NONE);
        }
        int augmented = 0;
        moved = 0;
        while (1) {
            if (WM(grow)(m)) {
                augmented = 1;
                break;
            }
            if (m->failed) return -1;
            moved = 1;
            int done = WM(adjust)(m, maxcardinality);
            if (done < 0 || m->failed) return -1;
            if (done) break;
        }
        if (m->failed) return -1;
        if (!augmented) break;
        for (int64_t b = size; b < 2 * size; b++) {
            if (m->parent[b] == NONE && m->base[b] >= 0 && m->label[b] == 1 && m->dual[b] == 0)
                WM(expand_blossom)(m, b, 1);
        }
        if (m->failed) return -1;
    }
    for (int64_t v = 0; v < size; v++) mate_out[v] = m->mate[v] != NONE ? m->endpoint[m->mate[v]] : NONE;
    return 0;
}

/* weighted.py's _Matcher.slacks: every edge's slack under the final duals and the number of blossoms of
 * positive dual holding both its ends; dual_out (2 * size) and base_out (2 * size) the final duals and bases.
 * 0 on success, -1 on overflow or out of memory. */
int WM(face)(WM(Matcher) *m, wm_int *slack_out, int64_t *held_out, wm_int *dual_out, int64_t *base_out) {
    int64_t size = m->size;
    int64_t *depth = xcalloc(size, sizeof(int64_t));
    int64_t *offset = xcalloc(size + 1, sizeof(int64_t));
    if (depth == NULL || offset == NULL) { free(depth); free(offset); return -1; }
    for (int64_t v = 0; v < size; v++) {
        int64_t d = 0;
        for (int64_t b = m->parent[v]; b != NONE; b = m->parent[b]) d++;
        depth[v] = d;
        offset[v + 1] = offset[v] + d;
    }
    int64_t *chains = xcalloc(offset[size], sizeof(int64_t));
    if (chains == NULL) { free(depth); free(offset); return -1; }
    for (int64_t v = 0; v < size; v++) {
        int64_t at = offset[v + 1];
        for (int64_t b = m->parent[v]; b != NONE; b = m->parent[b]) chains[--at] = b; /* outermost first */
    }
    /* Along each chain, outermost first: twice the duals of a blossom and of those holding it, and how many of
     * them are positive. An edge's ends share the first blossoms of their chains (a tree's ancestors), found by
     * halving: nested blossoms may be a thousand deep. */
    wm_int *twice_above = xcalloc(2 * size, sizeof(wm_int));
    int64_t *positive_above = xcalloc(2 * size, sizeof(int64_t));
    char *done = xcalloc(2 * size, 1);
    int status = 0;
    if (twice_above == NULL || positive_above == NULL || done == NULL) status = -1;
    for (int64_t v = 0; v < size && status == 0; v++) {
        for (int64_t i = 0; i < depth[v]; i++) {
            int64_t b = chains[offset[v] + i];
            if (done[b]) continue;
            wm_int twice, sum = 0;
            int64_t count = 0;
            if (i > 0) {
                sum = twice_above[chains[offset[v] + i - 1]];
                count = positive_above[chains[offset[v] + i - 1]];
            }
            if (__builtin_mul_overflow(m->dual[b], (wm_int)2, &twice) || __builtin_add_overflow(sum, twice, &sum)) {
                status = -1;
                break;
            }
            twice_above[b] = sum;
            positive_above[b] = count + (m->dual[b] > 0);
            done[b] = 1;
        }
    }
    for (int64_t k = 0; k < m->edges && status == 0; k++) {
        int64_t u = m->endpoint[2 * k], v = m->endpoint[2 * k + 1];
        wm_int s = m->dual[u] + m->dual[v] - 2 * m->weight[k];
        int64_t count = 0;
        int64_t common = depth[u] < depth[v] ? depth[u] : depth[v];
        const int64_t *cu = chains + offset[u], *cv = chains + offset[v];
        if (common > 0 && cu[0] == cv[0]) {
            int64_t low = 1, high = common; /* the first `low` blossoms are shared */
            while (low < high) {
                int64_t middle = low + (high - low + 1) / 2;
                if (cu[middle - 1] == cv[middle - 1]) low = middle;
                else high = middle - 1;
            }
            int64_t b = cu[low - 1];
            if (__builtin_add_overflow(s, twice_above[b], &s)) {
                status = -1;
                break;
            }
            count = positive_above[b];
        }
        memcpy(&slack_out[k], &s, sizeof(wm_int));
        held_out[k] = count;
    }
    free(twice_above);
    free(positive_above);
    free(done);
    for (int64_t b = 0; b < 2 * size; b++) {
        memcpy(&dual_out[b], &m->dual[b], sizeof(wm_int));
        base_out[b] = m->base[b];
    }
    free(depth);
    free(offset);
    free(chains);
    return status;
}

/* weighted.py's optimal_face from face's values: the edges without slack (indices, into kept_out), each one's
 * face weight (its ends of positive dual plus twice the blossoms of positive dual holding both), and how many;
 * the duals and bases as face gives them. 0, or -1 as face (or when memory ran out). */
int WM(face_tight)(WM(Matcher) *m, int64_t *kept_out, int64_t *face_out, int64_t *count_out, wm_int *dual_out,
                   int64_t *base_out) {
    wm_int *slack = xcalloc(m->edges, sizeof(wm_int));
    int64_t *held = xcalloc(m->edges, sizeof(int64_t));
    int status = slack != NULL && held != NULL ? WM(face)(m, slack, held, dual_out, base_out) : -1;
    if (status == 0) {
        int64_t count = 0;
        for (int64_t k = 0; k < m->edges; k++) {
            if (slack[k] != 0) continue;
            int64_t u = m->endpoint[2 * k], v = m->endpoint[2 * k + 1];
            kept_out[count] = k;
            face_out[count++] = (m->dual[u] > 0) + (m->dual[v] > 0) + 2 * held[k];
        }
        *count_out = count;
    }
    free(slack);
    free(held);
    return status;
}

/* A lexicographic phase's weights (dutch_bracket._Rows.parts): out[i] = face[i] * scale + fixed[kind[i]] +
 * order[oid[i]] for each of `count` edges (face NULL: none), their largest and smallest into extremes[0] and
 * extremes[1]. 0, or -1 when a kind or an order is outside its table or a sum leaves the integer. */
int WM(compose)(int64_t count, const int64_t *kind, int64_t kinds, const int64_t *oid, int64_t oids,
                const int64_t *face, const wm_int *scale_in, const wm_int *fixed_in, const wm_int *order_in,
                wm_int *out, wm_int *extremes) {
    wm_int scale, top = 0, bottom = 0;
    memcpy(&scale, scale_in, sizeof scale);
    wm_int *fixed = xcalloc(kinds, sizeof(wm_int)), *order = xcalloc(oids, sizeof(wm_int));
    int status = fixed != NULL && order != NULL ? 0 : -1;
    if (status == 0) {
        memcpy(fixed, fixed_in, (size_t)kinds * sizeof(wm_int)); /* the caller's buffers may be less aligned */
        memcpy(order, order_in, (size_t)oids * sizeof(wm_int));
    }
    for (int64_t i = 0; i < count && status == 0; i++) {
        if (kind[i] < 0 || kind[i] >= kinds || oid[i] < 0 || oid[i] >= oids) {
            status = -1;
            break;
        }
        wm_int weight = 0;
        if (face != NULL && __builtin_mul_overflow((wm_int)face[i], scale, &weight)) status = -1;
        if (status == 0 && (__builtin_add_overflow(weight, fixed[kind[i]], &weight)
                            || __builtin_add_overflow(weight, order[oid[i]], &weight))) status = -1;
        if (status != 0) break;
        if (i == 0 || weight > top) top = weight;
        if (i == 0 || weight < bottom) bottom = weight;
        memcpy(&out[i], &weight, sizeof weight);
    }
    memcpy(&extremes[0], &top, sizeof top);
    memcpy(&extremes[1], &bottom, sizeof bottom);
    free(fixed);
    free(order);
    return status;
}

#endif
