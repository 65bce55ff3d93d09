// A rules page (/rules/<game>): its diagrams, drawn from the scenes the server put in the page.

import { drawDiagrams } from "./pictures.js";

const main = document.querySelector("main.rules");
if (main) {
  drawDiagrams(main);
  main.dataset.ready = "1";
}
