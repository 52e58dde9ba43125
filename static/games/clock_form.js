// The time control of the table and tournament forms: show the per-move timer's field or the clock's base
// and increment, as the "Time control" choice says. Without this script every field shows.
function follow(block) {
  const choice = block.querySelector("select[name=timing]");
  if (!choice) return;
  const update = () => {
    for (const part of block.querySelectorAll("[data-timing-for]")) {
      part.hidden = part.dataset.timingFor !== choice.value;
    }
  };
  choice.addEventListener("change", update);
  update();
}

for (const block of document.querySelectorAll("[data-timing]")) follow(block);
