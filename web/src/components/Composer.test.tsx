import { describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Composer } from "./Composer";

const POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"];

describe("Composer", () => {
  it("sends to everyone by default", async () => {
    const onSend = vi.fn().mockResolvedValue(true);
    render(<Composer me="FRANCE" powers={POWERS} onSend={onSend} />);
    await userEvent.type(screen.getByRole("textbox", { name: "Message" }), "Hello Europe");
    await userEvent.click(screen.getByRole("button", { name: "Send to everyone" }));
    expect(onSend).toHaveBeenCalledWith("ALL", "Hello Europe");
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveProperty("value", "");
  });

  it("sends to exactly the ticked powers, never to me, sorted", async () => {
    const onSend = vi.fn().mockResolvedValue(true);
    render(<Composer me="FRANCE" powers={POWERS} preset={[]} onSend={onSend} />);
    expect(screen.queryByLabelText("France")).toBeNull();
    expect(screen.getByRole("button", { name: "Choose who to write to" })).toHaveProperty("disabled", true);
    await userEvent.click(screen.getByLabelText("Italy"));
    await userEvent.click(screen.getByLabelText("Germany"));
    await userEvent.type(screen.getByRole("textbox", { name: "Message" }), "Just us two... three");
    await userEvent.click(screen.getByRole("button", { name: "Send to Italy, Germany" }));
    expect(onSend).toHaveBeenCalledWith(["GERMANY", "ITALY"], "Just us two... three");
  });

  it("keeps the text when sending failed, and sends with Ctrl+Enter", async () => {
    const onSend = vi.fn().mockResolvedValue(false);
    render(<Composer me="FRANCE" powers={POWERS} preset={["ENGLAND"]} onSend={onSend} />);
    const text = screen.getByRole("textbox", { name: "Message" });
    await userEvent.type(text, "Channel?{Control>}{Enter}{/Control}");
    expect(onSend).toHaveBeenCalledWith(["ENGLAND"], "Channel?");
    expect(text).toHaveProperty("value", "Channel?");
  });

  it("offers only public press in a public-only game, and refuses an empty message", async () => {
    const onSend = vi.fn().mockResolvedValue(true);
    render(<Composer me="FRANCE" powers={POWERS} publicOnly onSend={onSend} />);
    expect(screen.queryByLabelText("England")).toBeNull();
    await userEvent.type(screen.getByRole("textbox", { name: "Message" }), "   ");
    expect(screen.getByRole("button", { name: "Send to everyone" })).toHaveProperty("disabled", true);
  });
});
