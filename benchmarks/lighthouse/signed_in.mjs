// Lighthouse (mobile preset, the CLI's defaults) on one URL with localStorage entries set before the
// page's first script: how benchmarks/page_blocking.py measures pages behind a sign-in.
//   node signed_in.mjs URL OUTPUT.json '{"key": "value"}'
// Chromium is launched by puppeteer-core (a dependency of Lighthouse) with the CLI's Chrome flags;
// Lighthouse's storage reset still runs (cold cache), the entries are written into each new document.
import fs from "node:fs";
import puppeteer from "puppeteer-core";
import lighthouse from "lighthouse";

const [url, output, storageJson] = process.argv.slice(2);
const storage = JSON.parse(storageJson || "{}");
const browser = await puppeteer.launch({
  executablePath: process.env.CHROME_PATH,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu"],
  defaultViewport: null,
});
try {
  const page = await browser.newPage();
  await page.evaluateOnNewDocument((entries) => {
    try {
      if (location.protocol.startsWith("http")) {
        for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
      }
    } catch (e) { /* about:blank has no storage */ }
  }, storage);
  const result = await lighthouse(url, {output: "json", onlyCategories: ["performance"], maxWaitForLoad: 60000,
                                        logLevel: "error"}, undefined, page);
  fs.writeFileSync(output, result.report);
  // LV_LIGHTHOUSE_TRACE=1: the run's Chrome trace beside the report (OUTPUT.trace.json), for DevTools'
  // Performance panel or benchmarks/trace_tasks.py.
  if (process.env.LV_LIGHTHOUSE_TRACE) {
    fs.writeFileSync(output.replace(/\.json$/, "") + ".trace.json", JSON.stringify(result.artifacts.Trace));
  }
} finally {
  await browser.close();
}
