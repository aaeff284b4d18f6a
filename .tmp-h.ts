import express from 'express';
import { Browser } from 'happy-dom';
import { apiDocsRouter } from './server/http/openapi.ts';
import { securityHeaders } from './server/http/security.ts';
const app = express(); app.use(securityHeaders()); app.use(apiDocsRouter());
const s = app.listen(0, '127.0.0.1', async () => {
  const port = (s.address() as any).port;
  const browser = new Browser({ settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true, errorCapture: 'processLevel' } as any, console });
  const page = browser.newPage();
  const t0 = Date.now();
  await page.goto(`http://127.0.0.1:${port}/api/docs`);
  await page.waitUntilComplete();
  for (let i = 0; i < 50; i++) {
    if (page.mainFrame.document.querySelectorAll('.opblock').length > 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const d = page.mainFrame.document;
  console.log('ms', Date.now() - t0, 'opblocks', d.querySelectorAll('.opblock').length, 'title', d.querySelector('.title')?.textContent, 'errors', d.querySelectorAll('.errors-wrapper').length);
  console.log([...d.querySelectorAll('.opblock-summary-path')].slice(0, 40).map((e) => e.textContent).join(' | '));
  console.log(d.querySelector('.errors-wrapper')?.textContent?.slice(0, 1000));
  await browser.close();
  s.close();
});
