"""Maximum-weight matching on a general graph with integer weights (Edmonds' blossom algorithm, primal-dual).

The Dutch engine weighs each bracket's candidates by one large integer an edge and asks for the matching of
greatest total weight (``dutch_bracket``). This is Galil's O(n^3) formulation ("Efficient algorithms for finding
maximum matching in graphs", ACM Computing Surveys 18, 1986), the one networkx's ``max_weight_matching`` follows
too, kept in flat lists indexed by node and edge so that it runs several times faster, and faster again when
scripts/build_engine.py compiles it with mypyc (it runs as it is where no compiler is at hand, with the same
results). Weights are Python ints of any size: with integer weights every dual variable and slack stays an
integer (the vertex duals start at the largest weight and edge slacks are counted doubled), so the optimum is exact.
Before the first stage a greedy start (``_Matcher.greedy_start``) matches the heaviest edges level by level
with duals that keep every invariant of the stages, which saves most stages when few distinct weights lead
(a lexicographic phase's first digits are often alike on most edges); where an edge from a free node to a
matched one would stop the level, it moves dual along matched edges to the end that needs it
(``_Matcher.rebalance``: a bracket's MDPs take their residents' share) and goes on. After a stage that moved the
duals, the edges without slack between free nodes are matched at once (``_Matcher.match_tight``) rather than a
stage each (the next group's pairs, once the bracket's heavy edges are settled).

``max_weight_matching`` and ``optimal_face`` run ``_Matcher`` in C where scripts/build_engine.py could compile it
(``weighted_native``: the same steps over 64-bit or 128-bit integers, the same matching and the same duals, ten
or more times faster); this module's own code answers for weights past 2 ** 120, a run whose duals would leave
the C code's word, or where there is no library (``_python_matching``, ``_python_face``).

Nodes are 0..n-1; ``edges`` are (u, v, weight) with u != v. An edge's two ends are numbered 2k and 2k + 1
("endpoints"), so that ``end ^ 1`` is the other end of the same edge. Blossoms are numbered n..2n-1.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from tournaments.pairing import weighted_native
from tournaments.pairing.weighted_native import Packed

NONE = -1
GREEDY_REBALANCES = 8  # how many times a greedy start may move matched edges' duals to come down a level


def max_weight_matching(size: int, edges: Sequence[tuple[int, int, int]], maxcardinality: bool = False) -> list[int]:
    """The matching of greatest total weight (among those of greatest cardinality when ``maxcardinality``), as
    the list of partners (``NONE`` for an unmatched node)."""
    return max_weight_matching_split(size, [(u, v) for u, v, _ in edges], [w for _, _, w in edges], maxcardinality)


def max_weight_matching_split(
    size: int, ends: Sequence[tuple[int, int]], weights: Sequence[int] | Packed, maxcardinality: bool = False,
    flat: array[int] | None = None,
) -> list[int]:
    """:func:`max_weight_matching` of the edges ``ends[k]`` of weight ``weights[k]`` (no tuple made an edge
    unless this module's own code has to run; ``flat``: the ends flattened, ``weighted_native.flatten``;
    ``weights`` may be ``weighted_native.compose``'s)."""
    if not ends:
        return [NONE] * size
    run = weighted_native.start_split(size, ends, weights, flat)
    if run is not None:
        try:
            mate = run.solve(maxcardinality)
        finally:
            run.close()
        if mate is not None:
            return mate
    return _python_matching(size, [(u, v, w) for (u, v), w in zip(ends, _integers(weights))], maxcardinality)


def _integers(weights: Sequence[int] | Packed) -> Sequence[int]:
    return weights.integers() if isinstance(weights, Packed) else weights


def _python_matching(size: int, edges: Sequence[tuple[int, int, int]], maxcardinality: bool) -> list[int]:
    """``max_weight_matching`` by this module's own code (any integers; the C library's reference)."""
    return _Matcher(size, edges).solve(maxcardinality)


Face = tuple[list[int], Sequence[int], list[bool], list[list[int]], Sequence[int]]


def optimal_face(size: int, edges: Sequence[tuple[int, int, int]]) -> Face:
    """A maximum-weight matching and what its optimal dual solution says of every other: (the matching as
    partners, the edges tight under the dual (indices into ``edges``), the nodes of positive dual, the node
    sets of the blossoms of positive dual, in each of which every optimum leaves exactly one node unmatched
    within the set, and for each tight edge its ends of positive dual plus twice the blossoms of positive
    dual that hold both ends).

    By complementary slackness every maximum-weight matching uses only tight edges and covers every node of
    positive dual (and every tight edge of an optimum is tight under every optimal dual); when no blossom's
    dual is positive, every matching of tight edges that covers those nodes is a maximum-weight matching."""
    mate, tight, positive, odd_sets, face = optimal_face_split(size, [(u, v) for u, v, _ in edges], [w for _, _, w in edges])
    return mate, list(tight), positive, odd_sets, list(face)


def optimal_face_split(
    size: int, ends: Sequence[tuple[int, int]], weights: Sequence[int] | Packed, flat: array[int] | None = None
) -> Face:
    """:func:`optimal_face` of the edges ``ends[k]`` of weight ``weights[k]`` (no tuple made an edge unless this
    module's own code has to run; ``flat``: the ends flattened, ``weighted_native.flatten``; ``weights`` may be
    ``weighted_native.compose``'s). The tight edges and their face weights may be arrays."""
    if not ends:
        return [NONE] * size, [], [False] * size, [], []
    run = weighted_native.start_split(size, ends, weights, flat)
    if run is not None:
        try:
            mate = run.solve(False)
            found = run.face_tight() if mate is not None else None
            if mate is not None and found is not None:
                tight, face, dual, base = found
                odd_sets = [run.leaves(b) for b in range(size, 2 * size) if base[b] >= 0 and dual[b] > 0]
                return mate, tight, [d > 0 for d in dual[:size]], odd_sets, face
        finally:
            run.close()
    return _python_face(size, [(u, v, w) for (u, v), w in zip(ends, _integers(weights))])


def _python_face(size: int, edges: Sequence[tuple[int, int, int]]) -> Face:
    """``optimal_face`` by this module's own code (any integers; the C library's reference)."""
    matcher = _Matcher(size, edges)
    mate = matcher.solve(False)
    slacks, held = matcher.slacks()
    positive = [matcher.dual[v] > 0 for v in range(size)]
    odd_sets = [matcher.leaves(b) for b in range(size, 2 * size) if matcher.base[b] >= 0 and matcher.dual[b] > 0]
    return _face(edges, mate, slacks, held, positive, odd_sets)


def _face(
    ends: Sequence[tuple[int, ...]], mate: list[int], slacks: list[int], held: list[int],
    positive: list[bool], odd_sets: list[list[int]],
) -> Face:
    tight = [k for k, slack in enumerate(slacks) if slack == 0]
    face = [int(positive[ends[k][0]]) + int(positive[ends[k][1]]) + 2 * held[k] for k in tight]
    return mate, tight, positive, odd_sets, face


class _Matcher:
    """The state of one run (names as in the literature: S-labels are outer, T-labels inner)."""

    def __init__(self, size: int, edges: Sequence[tuple[int, int, int]]) -> None:
        self.size = size
        self.endpoint: list[int] = []
        self.weight: list[int] = []
        self.neighbours: list[list[int]] = [[] for _ in range(size)]  # the far ends of each node's edges
        top = 0
        for k, (u, v, w) in enumerate(edges):
            self.endpoint.append(u)
            self.endpoint.append(v)
            self.weight.append(w)
            self.neighbours[u].append(2 * k + 1)
            self.neighbours[v].append(2 * k)
            if w > top:
                top = w
        count = 2 * size
        self.mate: list[int] = [NONE] * size  # the far endpoint of a node's matched edge
        self.label: list[int] = [0] * count  # 0 free, 1 S (outer), 2 T (inner); 5 marks a scan
        self.label_end: list[int] = [NONE] * count  # the endpoint a top blossom (or node) got its label through
        self.in_blossom: list[int] = list(range(size))  # the top-level blossom holding a node
        self.parent: list[int] = [NONE] * count
        self.children: list[list[int]] = [[] for _ in range(count)]
        self.base: list[int] = list(range(size)) + [NONE] * size
        self.child_ends: list[list[int]] = [[] for _ in range(count)]
        self.best_edge: list[int] = [NONE] * count
        self.best_edges: list[list[int] | None] = [None] * count
        self.unused: list[int] = list(range(size, count))
        self.dual: list[int] = [top] * size + [0] * size
        self.allowed: list[bool] = [False] * len(self.weight)
        self.queue: list[int] = []

    def slack(self, k: int) -> int:
        return self.dual[self.endpoint[2 * k]] + self.dual[self.endpoint[2 * k + 1]] - 2 * self.weight[k]

    def leaves(self, b: int) -> list[int]:
        if b < self.size:
            return [b]
        found: list[int] = []
        stack = [b]
        while stack:
            t = stack.pop()
            if t < self.size:
                found.append(t)
            else:
                stack.extend(self.children[t])
        return found

    def assign_label(self, w: int, t: int, p: int) -> None:
        """Label node ``w``'s top blossom ``t`` (reached through endpoint ``p``); a T-blossom's mate becomes S."""
        while True:
            b = self.in_blossom[w]
            self.label[w] = self.label[b] = t
            self.label_end[w] = self.label_end[b] = p
            self.best_edge[w] = self.best_edge[b] = NONE
            if t == 1:
                self.queue.extend(self.leaves(b))
                return
            mate_end = self.mate[self.base[b]]
            w, t, p = self.endpoint[mate_end], 1, mate_end ^ 1

    def scan_blossom(self, v: int, w: int) -> int:
        """Trace back from two S-nodes joined by a tight edge: the base of a new blossom, or NONE (an
        augmenting path joins two roots)."""
        path: list[int] = []
        base = NONE
        while v != NONE or w != NONE:
            b = self.in_blossom[v]
            if self.label[b] & 4:
                base = self.base[b]
                break
            path.append(b)
            self.label[b] = 5
            if self.label_end[b] == NONE:
                v = NONE
            else:
                v = self.endpoint[self.label_end[b]]
                b = self.in_blossom[v]
                v = self.endpoint[self.label_end[b]]
            if w != NONE:
                v, w = w, v
        for b in path:
            self.label[b] = 1
        return base

    def add_blossom(self, base: int, k: int) -> None:
        """Shrink the odd cycle closed by edge ``k`` through ``base`` into a new S-blossom."""
        v, w = self.endpoint[2 * k], self.endpoint[2 * k + 1]
        bb, bv, bw = self.in_blossom[base], self.in_blossom[v], self.in_blossom[w]
        b = self.unused.pop()
        self.base[b] = base
        self.parent[b] = NONE
        self.parent[bb] = b
        path: list[int] = []
        ends: list[int] = []
        while bv != bb:
            self.parent[bv] = b
            path.append(bv)
            ends.append(self.label_end[bv])
            v = self.endpoint[self.label_end[bv]]
            bv = self.in_blossom[v]
        path.append(bb)
        path.reverse()
        ends.reverse()
        ends.append(2 * k)
        while bw != bb:
            self.parent[bw] = b
            path.append(bw)
            ends.append(self.label_end[bw] ^ 1)
            w = self.endpoint[self.label_end[bw]]
            bw = self.in_blossom[w]
        self.children[b] = path
        self.child_ends[b] = ends
        self.label[b] = 1
        self.label_end[b] = self.label_end[bb]
        self.dual[b] = 0
        for leaf in self.leaves(b):
            if self.label[self.in_blossom[leaf]] == 2:
                self.queue.append(leaf)  # a T-node becomes S inside the blossom
            self.in_blossom[leaf] = b
        best_to = [NONE] * (2 * self.size)
        for child in path:
            known = self.best_edges[child]
            if known is None:
                candidates = [p // 2 for leaf in self.leaves(child) for p in self.neighbours[leaf]]
            else:
                candidates = known
            for edge in candidates:
                i, j = self.endpoint[2 * edge], self.endpoint[2 * edge + 1]
                if self.in_blossom[j] == b:
                    i, j = j, i
                bj = self.in_blossom[j]
                if bj != b and self.label[bj] == 1:
                    held = best_to[bj]
                    if held == NONE or self.slack(edge) < self.slack(held):
                        best_to[bj] = edge
            self.best_edges[child] = None
            self.best_edge[child] = NONE
        kept = [edge for edge in best_to if edge != NONE]
        self.best_edges[b] = kept
        best = NONE
        for edge in kept:
            if best == NONE or self.slack(edge) < self.slack(best):
                best = edge
        self.best_edge[b] = best

    def expand_blossom(self, b: int, end_stage: bool) -> None:
        """Undo blossom ``b`` (its dual reached zero); inside a stage, relabel the path through a T-blossom."""
        for s in self.children[b]:
            self.parent[s] = NONE
            if s < self.size:
                self.in_blossom[s] = s
            elif end_stage and self.dual[s] == 0:
                self.expand_blossom(s, end_stage)
            else:
                for leaf in self.leaves(s):
                    self.in_blossom[leaf] = s
        if not end_stage and self.label[b] == 2:
            children, ends = self.children[b], self.child_ends[b]
            entry = self.in_blossom[self.endpoint[self.label_end[b] ^ 1]]
            j = children.index(entry)
            if j & 1:
                j -= len(children)
                step, trick = 1, 0
            else:
                step, trick = -1, 1
            p = self.label_end[b]
            while j != 0:
                self.label[self.endpoint[p ^ 1]] = 0
                self.label[self.endpoint[ends[j - trick] ^ trick ^ 1]] = 0
                self.assign_label(self.endpoint[p ^ 1], 2, p)
                self.allowed[ends[j - trick] // 2] = True
                j += step
                p = ends[j - trick] ^ trick
                self.allowed[p // 2] = True
                j += step
            bv = children[j]
            self.label[self.endpoint[p ^ 1]] = self.label[bv] = 2
            self.label_end[self.endpoint[p ^ 1]] = self.label_end[bv] = p
            self.best_edge[bv] = NONE
            j += step
            while children[j] != entry:
                bv = children[j]
                if self.label[bv] == 1:
                    j += step
                    continue
                reached = NONE
                for leaf in self.leaves(bv):
                    if self.label[leaf] != 0:
                        reached = leaf
                        break
                if reached != NONE:
                    self.label[reached] = 0
                    self.label[self.endpoint[self.mate[self.base[bv]]]] = 0
                    self.assign_label(reached, 2, self.label_end[reached])
                j += step
        self.label[b] = self.label_end[b] = NONE
        self.children[b] = []
        self.child_ends[b] = []
        self.base[b] = NONE
        self.best_edges[b] = None
        self.best_edge[b] = NONE
        self.unused.append(b)

    def augment_blossom(self, b: int, v: int) -> None:
        """Rotate blossom ``b`` so that node ``v`` becomes its base, flipping the matched edges on the way."""
        t = v
        while self.parent[t] != b:
            t = self.parent[t]
        if t >= self.size:
            self.augment_blossom(t, v)
        children, ends = self.children[b], self.child_ends[b]
        i = j = children.index(t)
        if i & 1:
            j -= len(children)
            step, trick = 1, 0
        else:
            step, trick = -1, 1
        while j != 0:
            j += step
            t = children[j]
            p = ends[j - trick] ^ trick
            if t >= self.size:
                self.augment_blossom(t, self.endpoint[p])
            j += step
            t = children[j]
            if t >= self.size:
                self.augment_blossom(t, self.endpoint[p ^ 1])
            self.mate[self.endpoint[p]] = p ^ 1
            self.mate[self.endpoint[p ^ 1]] = p
        self.children[b] = children[i:] + children[:i]
        self.child_ends[b] = ends[i:] + ends[:i]
        self.base[b] = self.base[self.children[b][0]]

    def augment(self, k: int) -> None:
        """Flip the augmenting path through edge ``k`` between two S-nodes of different trees."""
        for s, p in ((self.endpoint[2 * k], 2 * k + 1), (self.endpoint[2 * k + 1], 2 * k)):
            while True:
                bs = self.in_blossom[s]
                if bs >= self.size:
                    self.augment_blossom(bs, s)
                self.mate[s] = p
                if self.label_end[bs] == NONE:
                    break
                t = self.endpoint[self.label_end[bs]]
                bt = self.in_blossom[t]
                s = self.endpoint[self.label_end[bt]]
                j = self.endpoint[self.label_end[bt] ^ 1]
                if bt >= self.size:
                    self.augment_blossom(bt, j)
                self.mate[j] = self.label_end[bt]
                p = self.label_end[bt] ^ 1

    def grow(self) -> bool:
        """Scan the queue of S-nodes along tight edges; True when an augmenting path was found and flipped."""
        label, in_blossom, endpoint, allowed = self.label, self.in_blossom, self.endpoint, self.allowed
        dual, weight, best_edge = self.dual, self.weight, self.best_edge
        while self.queue:
            v = self.queue.pop()
            bv = in_blossom[v]
            for p in self.neighbours[v]:
                k = p >> 1
                w = endpoint[p]
                bw = in_blossom[w]
                if bv == bw:
                    continue
                slack = 0
                if not allowed[k]:
                    slack = dual[v] + dual[w] - 2 * weight[k]
                    if slack <= 0:
                        allowed[k] = True
                if allowed[k]:
                    if label[bw] == 0:
                        self.assign_label(w, 2, p ^ 1)
                    elif label[bw] == 1:
                        base = self.scan_blossom(v, w)
                        if base >= 0:
                            self.add_blossom(base, k)
                            bv = in_blossom[v]
                        else:
                            self.augment(k)
                            return True
                    elif label[w] == 0:
                        label[w] = 2
                        self.label_end[w] = p ^ 1
                elif label[bw] == 1:
                    held = best_edge[bv]
                    if held == NONE or slack < self.slack(held):
                        best_edge[bv] = k
                elif label[w] == 0:
                    held = best_edge[w]
                    if held == NONE or slack < self.slack(held):
                        best_edge[w] = k
        return False

    def greedy_start(self) -> None:
        """Match the heaviest edges greedily before the first stage, with duals that keep every invariant of
        the stages: each edge is matched at a level (its weight) that all the free nodes' duals come down to
        together, a matched node keeping at least the level it was matched at (the duals stay feasible and
        every matched edge tight), and the free nodes' duals stay equal and the smallest. Their level stops
        where an edge from a free node to a matched one would turn slack negative, unless moving some of a
        matched edge's dual from one end to the other (``rebalance``) lets it come down to the next weight:
        the stages take over from where it stops."""
        size, weight, endpoint, dual = self.size, self.weight, self.endpoint, self.dual
        level = dual[0]
        bound = 0  # the lowest level the free-to-matched edges allow (weights are matched only while positive)
        matched = [False] * size
        tries = GREEDY_REBALANCES
        for k in sorted(range(len(weight)), key=lambda e: -weight[e]):
            w = weight[k]
            u, v = endpoint[2 * k], endpoint[2 * k + 1]
            if matched[u] or matched[v]:
                continue
            if w < level:
                if w <= bound:
                    if w <= 0 or tries == 0:
                        level = bound
                        break
                    tries -= 1
                    settled = self.rebalance(matched, w)
                    if settled < 0:
                        level = bound
                        break
                    bound = settled
                level = w
            self.mate[u], self.mate[v] = 2 * k + 1, 2 * k
            matched[u] = matched[v] = True
            dual[u] = dual[v] = level
            for x in (u, v):
                for p in self.neighbours[x]:
                    if not matched[endpoint[p]] and 2 * weight[p >> 1] - level > bound:
                        bound = 2 * weight[p >> 1] - level
        for v in range(size):
            if not matched[v]:
                dual[v] = level

    def rebalance(self, matched: list[bool], target: int) -> int:
        """Let the free nodes' level come down to ``target`` (a positive weight below every matched node's dual)
        by moving dual along matched edges: a node whose edges to free nodes need more than it has (twice the
        edge's weight less ``target``) takes it from its partner, whose own need and edges to the other matched
        nodes must allow once every edge has moved. All or nothing: the new bound of the free-to-matched edges
        (at most ``target``), or -1 with every dual as it was."""
        size, weight, endpoint, dual, mate, neighbours = (
            self.size, self.weight, self.endpoint, self.dual, self.mate, self.neighbours)
        reach = [0] * size  # twice the heaviest weight of a matched node's edges to free nodes
        for x in range(size):
            if matched[x]:
                for p in neighbours[x]:
                    if not matched[endpoint[p]] and 2 * weight[p >> 1] > reach[x]:
                        reach[x] = 2 * weight[p >> 1]
        moved: list[tuple[int, int, int]] = []  # (the node that gave, the node that took, how much)
        failed = False
        for x in range(size):
            if not matched[x]:
                continue
            y = endpoint[mate[x]]
            if y < x:
                continue
            need_x, need_y = max(target, reach[x] - target), max(target, reach[y] - target)
            if need_x + need_y > dual[x] + dual[y]:
                failed = True
                break
            if dual[x] < need_x:
                moved.append((y, x, need_x - dual[x]))
            elif dual[y] < need_y:
                moved.append((x, y, need_y - dual[y]))
        if not failed:
            for giver, taker, amount in moved:
                dual[taker] += amount
                dual[giver] -= amount
            for giver, _taker, _amount in moved:
                for p in neighbours[giver]:
                    if matched[endpoint[p]] and dual[giver] + dual[endpoint[p]] < 2 * weight[p >> 1]:
                        failed = True
                        break
                if failed:
                    break
            if failed:
                for giver, taker, amount in moved:
                    dual[taker] -= amount
                    dual[giver] += amount
        if failed:
            return NONE
        bound = 0
        for x in range(size):
            if matched[x] and reach[x] - dual[x] > bound:
                bound = reach[x] - dual[x]
        return bound

    def match_tight(self) -> None:
        """Match every edge without slack between two free nodes outside any blossom, greedily in the order of
        the nodes and their edges, before a stage labels anything. Each is an augmenting path of one edge that
        a stage of its own would find, and nothing else changes (duals, blossoms), so every invariant holds.
        Run after a stage that moved the duals, which is when such edges appear (a lexicographic phase's light
        pairs among the next group's players, once the bracket's heavy edges have been settled): that stage
        scanned every free node's edges already, so this costs it no more than it spent."""
        mate, endpoint, in_blossom, neighbours = self.mate, self.endpoint, self.in_blossom, self.neighbours
        for u in range(self.size):
            if mate[u] != NONE or in_blossom[u] != u:
                continue
            for p in neighbours[u]:
                v = endpoint[p]
                if mate[v] == NONE and in_blossom[v] == v and self.slack(p >> 1) == 0:
                    mate[u], mate[v] = p, p ^ 1
                    break

    def solve(self, maxcardinality: bool) -> list[int]:
        size = self.size
        if not maxcardinality:
            self.greedy_start()
        moved = False  # whether the last stage moved the duals
        for _ in range(size):
            if moved:
                self.match_tight()
            self.label = [0] * (2 * size)
            self.best_edge = [NONE] * (2 * size)
            for b in range(size, 2 * size):
                self.best_edges[b] = None
            self.allowed = [False] * len(self.weight)
            self.queue = []
            for v in range(size):
                if self.mate[v] == NONE and self.label[self.in_blossom[v]] == 0:
                    self.assign_label(v, 1, NONE)
            augmented = moved = False
            while True:
                if self.grow():
                    augmented = True
                    break
                moved = True
                if self.adjust(maxcardinality):
                    break
            if not augmented:
                break
            for b in range(size, 2 * size):
                if self.parent[b] == NONE and self.base[b] >= 0 and self.label[b] == 1 and self.dual[b] == 0:
                    self.expand_blossom(b, True)
        return [self.endpoint[end] if end != NONE else NONE for end in self.mate]

    def slacks(self) -> tuple[list[int], list[int]]:
        """Every edge's slack under the final duals (its two nodes' duals, less twice its weight, plus twice the
        duals of the blossoms holding both ends: never negative when the duals are feasible), and how many
        blossoms of positive dual hold both its ends."""
        chains: list[list[int]] = []
        for v in range(self.size):
            chain: list[int] = []
            b = self.parent[v]
            while b != NONE:
                chain.append(b)
                b = self.parent[b]
            chain.reverse()
            chains.append(chain)
        dual, endpoint = self.dual, self.endpoint
        found: list[int] = []
        held: list[int] = []
        for k, w in enumerate(self.weight):
            u, v = endpoint[2 * k], endpoint[2 * k + 1]
            slack = dual[u] + dual[v] - 2 * w
            above_u, above_v = chains[u], chains[v]
            count = 0
            for index in range(min(len(above_u), len(above_v))):
                if above_u[index] != above_v[index]:
                    break
                slack += 2 * dual[above_u[index]]
                count += int(dual[above_u[index]] > 0)
            found.append(slack)
            held.append(count)
        return found, held

    def adjust(self, maxcardinality: bool) -> bool:
        """Change the duals by the largest step that keeps them feasible; True when the optimum is reached."""
        size, label, in_blossom, dual = self.size, self.label, self.in_blossom, self.dual
        kind = 0
        delta = 0
        edge = NONE
        blossom = NONE
        if not maxcardinality:
            kind, delta = 1, min(dual[:size])
        for v in range(size):
            if label[in_blossom[v]] == 0 and self.best_edge[v] != NONE:
                d = self.slack(self.best_edge[v])
                if kind == 0 or d < delta:
                    kind, delta, edge = 2, d, self.best_edge[v]
        for b in range(2 * size):
            if self.parent[b] == NONE and label[b] == 1 and self.best_edge[b] != NONE:
                d = self.slack(self.best_edge[b]) // 2
                if kind == 0 or d < delta:
                    kind, delta, edge = 3, d, self.best_edge[b]
        for b in range(size, 2 * size):
            if self.base[b] >= 0 and self.parent[b] == NONE and label[b] == 2 and (kind == 0 or dual[b] < delta):
                kind, delta, blossom = 4, dual[b], b
        if kind == 0:  # maximum cardinality reached: no dual may go below zero
            kind, delta = 1, max(0, min(dual[:size]))
        for v in range(size):
            top_label = label[in_blossom[v]]
            if top_label == 1:
                dual[v] -= delta
            elif top_label == 2:
                dual[v] += delta
        for b in range(size, 2 * size):
            if self.base[b] >= 0 and self.parent[b] == NONE:
                if label[b] == 1:
                    dual[b] += delta
                elif label[b] == 2:
                    dual[b] -= delta
        if kind == 1:
            return True
        if kind == 2:
            self.allowed[edge] = True
            i, j = self.endpoint[2 * edge], self.endpoint[2 * edge + 1]
            if label[in_blossom[i]] == 0:
                i = j
            self.queue.append(i)
        elif kind == 3:
            self.allowed[edge] = True
            self.queue.append(self.endpoint[2 * edge])
        else:
            self.expand_blossom(blossom, False)
        return False
