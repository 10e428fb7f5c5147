// The page's entry point: one App on the server that served the page.
import { App } from "./app.js";

const scheme = location.protocol === "https:" ? "wss:" : "ws:";
const app = new App(document.getElementById("app"), `${scheme}//${location.host}/`);
window.arbiter = app; // for the browser tests and bench/web.py: the replica and the figures
app.start();
