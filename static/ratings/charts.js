// The rating charts of a player's ratings page, drawn with the vendored Chart.js (window.Chart).
// The data is the page's #rating-charts JSON: per pool the labels (dates) and the rating after each game.
(function () {
  "use strict";
  const script = document.currentScript;
  const label = (script && script.dataset.label) || "Rating";

  function draw() {
    const source = document.getElementById("rating-charts");
    if (!source || typeof window.Chart === "undefined") {
      return;
    }
    const charts = JSON.parse(source.textContent);
    document.querySelectorAll("canvas[data-chart]").forEach(function (canvas) {
      const data = charts[Number(canvas.dataset.chart)];
      if (!data) {
        return;
      }
      new window.Chart(canvas, {
        type: "line",
        data: {
          labels: data.labels,
          datasets: [{
            label: label,
            data: data.ratings,
            borderColor: "#14532d",
            backgroundColor: "rgba(20, 83, 45, 0.12)",
            fill: true,
            pointRadius: data.ratings.length > 60 ? 0 : 2,
            tension: 0,
          }],
        },
        options: {
          animation: false,
          responsive: true,
          maintainAspectRatio: false,
          plugins: { legend: { display: false } },
          scales: { x: { ticks: { maxTicksLimit: 8, autoSkip: true } } },
        },
      });
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", draw);
  } else {
    draw();
  }
})();
