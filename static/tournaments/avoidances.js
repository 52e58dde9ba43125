// The director's avoidances form: the entrant chosen on one side cannot be chosen on the other (the server
// refuses such a pair too, with the same words).
const form = document.getElementById("avoidance-form");
if (form) {
  const sides = [form.elements.namedItem("first"), form.elements.namedItem("second")];
  const update = () => {
    for (const [index, side] of sides.entries()) {
      const other = sides[1 - index].value;
      for (const option of side.options) option.disabled = option.value !== "" && option.value === other;
    }
  };
  for (const side of sides) side.addEventListener("change", update);
  update();
}
