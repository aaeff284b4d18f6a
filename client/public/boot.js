/*
 * Runs before the first paint (a classic script in the head of index.html, a
 * few hundred bytes): applies the stored or the system's colour scheme and the
 * page's language as the app will (theme.ts applyStoredColorScheme, i18n.ts
 * detectLanguage), so the static shell already shows in them. Checked against
 * those functions by tests/client/boot.test.ts.
 */
(function () {
  var root = document.documentElement;
  function read(key) {
    try {
      return window.localStorage.getItem(key);
    } catch (e) {
      return null;
    }
  }
  var scheme = read('colorScheme');
  if (scheme !== 'light' && scheme !== 'dark') {
    scheme = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  root.classList.add(scheme);
  root.classList.remove(scheme === 'dark' ? 'light' : 'dark');
  root.style.colorScheme = scheme;
  var lang = read('language');
  if (lang !== 'en' && lang !== 'de') {
    lang = 'en';
    var nav = window.navigator;
    var candidates = nav.languages && nav.languages.length ? nav.languages : nav.language ? [nav.language] : [];
    for (var i = 0; i < candidates.length; i++) {
      var primary = String(candidates[i]).trim().toLowerCase().replace('_', '-').split('-')[0];
      if (primary === 'en' || primary === 'de') {
        lang = primary;
        break;
      }
    }
  }
  root.lang = lang;
})();
