import { describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { OrderBox } from "./OrderBox";

const LEGAL = ["A PAR - BUR", "A PAR - GAS", "A PAR - PIC", "A PAR H", "F BRE - MAO"];

describe("OrderBox", () => {
  it("completes what is typed and sends the highlighted order with Enter", async () => {
    const onOrder = vi.fn();
    render(<OrderBox legal={LEGAL} onOrder={onOrder} />);
    const box = screen.getByRole("combobox", { name: "Type an order" });
    await userEvent.type(box, "a par -");
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["A PAR - BUR", "A PAR - GAS", "A PAR - PIC"]);
    await userEvent.keyboard("{ArrowDown}{ArrowDown}{Enter}");
    expect(onOrder).toHaveBeenCalledWith("A PAR - PIC");
    expect(box).toHaveProperty("value", "");
  });

  it("completes with Tab, wraps with ArrowUp, and picks with a click", async () => {
    const onOrder = vi.fn();
    render(<OrderBox legal={LEGAL} onOrder={onOrder} />);
    const box = screen.getByRole("combobox");
    await userEvent.type(box, "bre");
    await userEvent.keyboard("{Tab}");
    expect(box).toHaveProperty("value", "F BRE - MAO");
    await userEvent.clear(box);
    await userEvent.type(box, "a par");
    await userEvent.keyboard("{ArrowUp}");
    expect(screen.getAllByRole("option")[3].getAttribute("aria-selected")).toBe("true");
    await userEvent.click(screen.getByRole("option", { name: "A PAR - GAS" }));
    expect(onOrder).toHaveBeenCalledWith("A PAR - GAS");
  });

  it("sends a text no legal order matches, so the server can say why it is wrong", async () => {
    const onOrder = vi.fn();
    render(<OrderBox legal={LEGAL} onOrder={onOrder} />);
    await userEvent.type(screen.getByRole("combobox"), "A PAR - MOS{Enter}");
    expect(onOrder).toHaveBeenCalledWith("A PAR - MOS");
  });
});
