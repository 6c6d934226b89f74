// The figures' geometry (figures.js), in node: `node --test tests/probes/` (tests/test_probes.py).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
require("./figures.js");
const { apart, boxCorners, onScreen, normals, drawnSize } = globalThis.attnlitProbes;

const identity = { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 };
const turned = degrees => {  // a turn about the origin, as an SVGMatrix
    const r = degrees * Math.PI / 180;
    return { a: Math.cos(r), b: Math.sin(r), c: -Math.sin(r), d: Math.cos(r), e: 0, f: 0 };
};
const box = (x0, y0, x1, y1, m = identity) => onScreen(m, boxCorners([x0, y0, x1, y1]));
const close = (actual, expected) => actual.flat().forEach((value, i) =>
    assert.ok(Math.abs(value - expected.flat()[i]) < 1e-9, `${actual} is not ${expected}`));

test("a matrix moves, scales and turns points as SVG does", () => {
    assert.deepEqual(onScreen({ a: 2, b: 0, c: 0, d: 3, e: 10, f: 20 }, [[1, 1], [0, 0]]), [[12, 23], [10, 20]]);
    close(onScreen(turned(90), [[1, 0], [0, 1]]), [[0, 1], [-1, 0]]);
});

test("a box's corners go around it, and each edge's normal is at right angles to it", () => {
    assert.deepEqual(boxCorners([0, 0, 2, 1]), [[0, 0], [2, 0], [2, 1], [0, 1]]);
    assert.deepEqual(normals(boxCorners([0, 0, 2, 1])), [[0, -2], [1, 0], [0, 2], [-1, 0]]);
});

test("boxes that share area overlap; boxes side by side, or touching, are apart", () => {
    assert.equal(apart(box(0, 0, 10, 10), box(5, 5, 15, 15)), false);
    assert.equal(apart(box(0, 0, 10, 10), box(2, 2, 4, 4)), false);  // one inside the other
    assert.equal(apart(box(0, 0, 10, 10), box(11, 0, 20, 10)), true);
    assert.equal(apart(box(0, 0, 10, 10), box(10, 0, 20, 10)), true);  // touching
    assert.equal(apart(box(0, 0, 10, 10), box(0, 12, 10, 20)), true);
});

test("turned boxes: apart where their upright bounding boxes would overlap", () => {
    // Two thin labels turned 45°, side by side along their width's normal: upright boxes
    // around them overlap, the labels do not.
    const one = box(0, 0, 40, 4, turned(45)), other = box(0, 6, 40, 10, turned(45));
    assert.equal(apart(one, other), true);
    assert.equal(apart(one, box(0, 2, 40, 8, turned(45))), false);
});

test("a label overlaps a line through it, not a line beside it; a line of no length is a point", () => {
    const label = box(0, 0, 30, 10);
    assert.equal(apart(label, [[15, -5], [15, 20]]), false);  // a vertical line through it
    assert.equal(apart(label, [[35, -5], [35, 20]]), true);
    assert.equal(apart(label, [[-10, 10], [40, 10]]), true);  // along its bottom edge: touching
    assert.equal(apart(label, [[5, 5], [5, 5]]), false);  // a point inside
    assert.equal(apart(label, [[50, 5], [50, 5]]), true);
});

test("text is drawn at its font size times the matrix's scale, whatever its turn", () => {
    assert.equal(drawnSize(10, identity), 10);
    assert.equal(drawnSize(10, { ...identity, a: 1.5, d: 1.5 }), 15);
    assert.ok(Math.abs(drawnSize(12, turned(30)) - 12) < 1e-9);
});
