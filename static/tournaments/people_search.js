// The director's people search (templates/tournaments/_direct_entrants.html): a combobox whose listbox htmx
// fills; arrow keys move through the people found, Enter or a click enters the one chosen by his account's id.
(() => {
  const input = document.getElementById("people-query");
  const list = document.getElementById("people-options");
  const form = document.getElementById("people-form");
  const chosen = document.getElementById("people-chosen");
  if (!input || !list || !form || !chosen) return;

  const options = () => [...list.querySelectorAll('[role="option"]')];
  let active = -1;

  function show(index) {
    const all = options();
    active = all.length ? (index + all.length) % all.length : -1;
    all.forEach((option, at) => option.setAttribute("aria-selected", String(at === active)));
    if (active >= 0) {
      input.setAttribute("aria-activedescendant", all[active].id);
      all[active].scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  }

  function choose(option) {
    if (!option || option.getAttribute("aria-disabled") === "true") return;
    chosen.value = option.dataset.person;
    form.submit();
  }

  list.addEventListener("htmx:afterSwap", () => {
    input.setAttribute("aria-expanded", String(options().length > 0));
    show(options().length ? 0 : -1);
  });
  document.body.addEventListener("htmx:afterSwap", (event) => {
    if (event.target === list) {
      input.setAttribute("aria-expanded", String(options().length > 0));
      show(options().length ? 0 : -1);
    }
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown") { event.preventDefault(); show(active + 1); }
    else if (event.key === "ArrowUp") { event.preventDefault(); show(active - 1); }
    else if (event.key === "Enter") { event.preventDefault(); choose(options()[active]); }
    else if (event.key === "Escape") { list.innerHTML = ""; input.setAttribute("aria-expanded", "false"); show(-1); }
  });
  list.addEventListener("click", (event) => choose(event.target.closest('[role="option"]')));
  form.addEventListener("submit", (event) => { if (!chosen.value) event.preventDefault(); });
})();
