/**
 * The variants' own data (GET /variants: powers, rulebooks, province names), fetched once per
 * page and shared. The client assumes no map: names come from here, ids stand in until then.
 */
import { useEffect, useState } from "react";
import { call } from "./api";
import type { Variant } from "./types";

let pending: Promise<Variant[]> | null = null;

export function loadVariants(): Promise<Variant[]> {
  pending ??= call<{ variants: Variant[] }>("GET", "/variants").then((a) => a.variants).catch((e) => {
    pending = null; // the next caller asks again
    throw e;
  });
  return pending;
}

/** The named variant, once known (null meanwhile, or when the API does not list it). */
export function useVariant(name: string | undefined): Variant | null {
  const [variant, setVariant] = useState<Variant | null>(null);
  useEffect(() => {
    let live = true;
    if (name) loadVariants().then((all) => { if (live) setVariant(all.find((v) => v.name === name) ?? null); }).catch(() => undefined);
    return () => { live = false; };
  }, [name]);
  return variant;
}

/** "Paris (PAR)" when the variant names it, else the id. */
export function provinceName(variant: Variant | null, id: string): string {
  const name = variant?.provinces?.[id];
  return name ? `${name} (${id})` : id;
}
