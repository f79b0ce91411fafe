import { describe, expect, it } from "vitest";
import {
  allInView, contentAt, doubleTap, fitSize, fitView, frameRect, markScale, pan, pinch, reframe, screenOf, separate,
  separatingScale, settle, zoomAbout, zoomCentre, type Frame,
} from "./zoom";

// A phone: a 390 x 520 viewport holding a map fitted to 390 x 360.
const PHONE: Frame = { viewport: { w: 390, h: 520 }, content: { w: 390, h: 360 }, maxScale: 6 };

describe("fitting the whole map", () => {
  it("contains the map and centres it where it is smaller than its box", () => {
    expect(fitSize({ w: 1000, h: 923 }, { w: 390, h: 520 })).toEqual({ w: 390, h: 359.97 });
    expect(fitView(PHONE)).toEqual({ s: 1, x: 0, y: 80 });
  });
});

describe("zoom keeps the point it is about where it was (issue 32)", () => {
  it("a pinch keeps the province under the fingers under them", () => {
    const start = fitView(PHONE);
    const a0 = { x: 170, y: 250 }, b0 = { x: 230, y: 270 };
    const under = contentAt(start, { x: 200, y: 260 });
    const v = pinch(start, a0, b0, { x: 140, y: 240 }, { x: 260, y: 280 }, PHONE);
    expect(v.s).toBeCloseTo(2, 5);
    const now = screenOf(v, under);
    expect(now.x).toBeCloseTo(200, 5);
    expect(now.y).toBeCloseTo(260, 5);
  });

  it("a pinch whose fingers move together pans with them", () => {
    const start = settle({ s: 2, x: -200, y: -100 }, PHONE);
    const under = contentAt(start, { x: 200, y: 250 });
    const v = pinch(start, { x: 180, y: 250 }, { x: 220, y: 250 }, { x: 200, y: 280 }, { x: 240, y: 280 }, PHONE);
    expect(screenOf(v, under)).toEqual({ x: 220, y: 280 });
  });

  it("the + button zooms about the centre of the viewport, not the top-left corner", () => {
    const start = fitView(PHONE);
    const centre = contentAt(start, { x: 195, y: 260 });
    const v = zoomCentre(start, 1.5, PHONE);
    const now = screenOf(v, centre);
    expect(now.x).toBeCloseTo(195, 5);
    expect(now.y).toBeCloseTo(260, 5);
    expect(v.x).toBeLessThan(0);
  });

  it("a double tap doubles about the tap, and from the top zoom goes back to the whole map", () => {
    const v = doubleTap(fitView(PHONE), { x: 300, y: 200 }, PHONE);
    expect(v.s).toBe(2);
    expect(screenOf(v, contentAt(fitView(PHONE), { x: 300, y: 200 }))).toEqual({ x: 300, y: 200 });
    expect(doubleTap({ ...v, s: 6 }, { x: 10, y: 10 }, PHONE)).toEqual(fitView(PHONE));
  });
});

describe("a frame that changes size (issue 32: the board must not jump)", () => {
  it("keeps the content at the viewport's centre there, at the same zoom", () => {
    const old = { viewport: { w: 390, h: 500 }, content: { w: 390, h: 300 }, maxScale: 6 };
    const next = { viewport: { w: 390, h: 400 }, content: { w: 390, h: 300 }, maxScale: 6 };
    const framed = { s: 3, x: -500, y: -300 };
    const centre = contentAt(framed, { x: 195, y: 250 });
    const kept = reframe(framed, old, next);
    expect(kept.s).toBe(3);
    const after = contentAt(kept, { x: 195, y: 200 });
    expect(after.x).toBeCloseTo(centre.x, 6);
    expect(after.y).toBeCloseTo(centre.y, 6);
  });
  it("scales the content point with the content when the width changes too", () => {
    const old = { viewport: { w: 400, h: 400 }, content: { w: 400, h: 300 }, maxScale: 6 };
    const next = { viewport: { w: 200, h: 400 }, content: { w: 200, h: 150 }, maxScale: 6 };
    const framed = { s: 4, x: -600, y: -400 };
    const centre = contentAt(framed, { x: 200, y: 200 });
    const after = contentAt(reframe(framed, old, next), { x: 100, y: 200 });
    expect(after.x).toBeCloseTo(centre.x / 2, 6);
    expect(after.y).toBeCloseTo(centre.y / 2, 6);
  });
});

describe("limits", () => {
  it("never shrinks below the whole map nor past the top zoom", () => {
    expect(zoomAbout(fitView(PHONE), 0.5, { x: 0, y: 0 }, PHONE)).toEqual(fitView(PHONE));
    expect(zoomAbout(fitView(PHONE), 100, { x: 100, y: 100 }, PHONE).s).toBe(6);
  });

  it("a pan stops at the map's edges", () => {
    const v = settle({ s: 2, x: 0, y: 0 }, PHONE);
    expect(pan(v, 500, 500, PHONE)).toEqual({ s: 2, x: 0, y: 0 });
    expect(pan(v, -5000, -5000, PHONE)).toEqual({ s: 2, x: 390 - 780, y: 520 - 720 });
  });
});

describe("framing and hit areas", () => {
  it("frames a rectangle (the player's units) as large as fits", () => {
    const v = frameRect({ x: 100, y: 100, w: 70, h: 50 }, PHONE, 20);
    expect(v.s).toBeCloseTo((390 - 40) / 70, 5);
    expect(screenOf(v, { x: 135, y: 125 })).toEqual({ x: 195, y: 260 });
    expect(frameRect({ x: 100, y: 100, w: 5, h: 5 }, PHONE).s).toBe(6);
  });

  it("finds the scale at which 44 px squares on the points stop overlapping", () => {
    expect(separatingScale([{ x: 0, y: 0 }], 44)).toBe(1);
    expect(separatingScale([{ x: 0, y: 0 }, { x: 22, y: 5 }, { x: 0, y: 88 }], 44)).toBe(2);
  });

  it("zooms out to bring every target into view when the zoom allows", () => {
    const points = [{ x: 100, y: 100 }, { x: 150, y: 100 }, { x: 300, y: 120 }];
    const close = settle({ s: 6, x: -500, y: -500 }, PHONE);
    const v = separate(close, points, 44, PHONE);
    expect(v.s).toBeCloseTo((390 - 44) / 200, 5);
    expect(allInView(v, points, 22, PHONE)).toBe(true);
  });

  it("zooms only as far as the targets need, about their centre", () => {
    const points = [{ x: 200, y: 200 }, { x: 211, y: 200 }, { x: 200, y: 222 }];
    const start = fitView(PHONE);
    const v = separate(start, points, 44, PHONE);
    expect(v.s).toBe(4);
    const a = screenOf(v, points[0]), b = screenOf(v, points[1]);
    expect(Math.abs(a.x - b.x)).toBeCloseTo(44, 5);
    expect(separate(v, points, 44, PHONE)).toBe(v);
  });
});

describe("marks stay visible", () => {
  it("grows units and arrows at phone scale and leaves them alone on a large board", () => {
    expect(markScale(0.39)).toEqual({ units: 1.9, orders: 2.3 });
    expect(markScale(1.2)).toEqual({ units: 1, orders: 1 });
    expect(markScale(0.05)).toEqual({ units: 2.5, orders: 2.5 });
  });
});
