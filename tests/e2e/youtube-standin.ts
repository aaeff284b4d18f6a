/**
 * A local stand-in for YouTube's IFrame Player API (issue 27 §2): tests never
 * reach YouTube, so the server's YOUTUBE_IFRAME_API and YOUTUBE_PLAYER_HOST
 * point here instead. It is served the way YouTube serves the real one: the
 * API script (`/iframe_api`) loads the player script from `/s/player/…` (which
 * the page's CSP must allow), and each player is an `<iframe>` of
 * `<host>/embed/<video id>` (which frame-src must allow).
 *
 * It behaves as the API reference describes (developers.google.com/youtube/
 * iframe_api_reference), for what it covers: `onYouTubeIframeAPIReady` once the
 * API is there; `new YT.Player(element or id, { width, height, videoId, host,
 * playerVars: { start }, events })` replaces the element with the player's
 * iframe and calls `onReady` once that has loaded; `YT.PlayerState` (UNSTARTED
 * -1, ENDED 0, PLAYING 1, PAUSED 2, BUFFERING 3, CUED 5); `cueVideoById` cues
 * (state CUED) at `startSeconds`; `playVideo` buffers, then plays; `seekTo`
 * moves the time and keeps a paused player paused, and plays from any other
 * state; `pauseVideo` pauses (PAUSED, unless ENDED); `stopVideo` stops and
 * cancels loading; `getCurrentTime`, `getPlayerState`, `getVideoData`,
 * `setVolume`/`getVolume`, `mute`/`unMute`/`isMuted`, `getIframe`, `destroy`;
 * `onStateChange` events carry `{ target, data }`. Videos are 240 s long (ENDED
 * at their end); `onError` 100 for the id `notavideo00` (a removed video).
 *
 * Every state change is also logged in the page as `window.__ytStandin.log`
 * ({ state, time, videoId, at }), for the tests to read.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface YoutubeStandin {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The API script's URL, for YOUTUBE_IFRAME_API. */
  api: string;
  /** Every path the browsers asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

const PLAYER_PATH = '/s/player/standin0/www-widgetapi.vflset/www-widgetapi.js';

/** The API script: as YouTube's, it only loads the player script. */
const apiScript = (origin: string) => `(function () {
  if (!window.YT) window.YT = { loading: 0, loaded: 0 };
  if (window.YT.loading) return;
  window.YT.loading = 1;
  var s = document.createElement('script');
  s.src = ${JSON.stringify(origin + PLAYER_PATH)};
  s.async = true;
  document.head.appendChild(s);
})();
`;

/** The player script: YT.Player and friends, then onYouTubeIframeAPIReady. */
const playerScript = (origin: string) => `(function () {
  var DURATION = 240;
  var State = { UNSTARTED: -1, ENDED: 0, PLAYING: 1, PAUSED: 2, BUFFERING: 3, CUED: 5 };
  var standin = window.__ytStandin = window.__ytStandin || { log: [] };
  function Player(target, options) {
    var el = typeof target === 'string' ? document.getElementById(target) : target;
    if (!el) throw new Error('YT.Player: no element ' + target);
    options = options || {};
    this._opts = options;
    this._events = options.events || {};
    this._listeners = {};
    this._host = options.host || ${JSON.stringify(origin)};
    this._videoId = options.videoId || '';
    var vars = options.playerVars || {};
    this._time = Number(vars.start) || 0;
    this._state = State.UNSTARTED;
    this._clock = null;
    this._ready = false;
    this._volume = 100;
    this._muted = false;
    var frame = document.createElement('iframe');
    if (el.id) frame.id = el.id;
    frame.width = String(options.width || 640);
    frame.height = String(options.height || 360);
    frame.title = 'YouTube video player';
    frame.setAttribute('frameborder', '0');
    frame.setAttribute('allow', 'autoplay; encrypted-media; picture-in-picture');
    frame.src = this._embedUrl();
    var self = this;
    frame.addEventListener('load', function () {
      if (self._ready) return;
      self._ready = true;
      self._fire('onReady', undefined);
      if (self._videoId) self._setState(State.CUED);
    });
    el.replaceWith(frame);
    this._frame = frame;
    standin.players = (standin.players || 0) + 1;
  }
  Player.prototype._embedUrl = function () {
    var q = 'enablejsapi=1&start=' + Math.floor(this._time) + '&origin=' + encodeURIComponent(location.origin);
    return this._host + '/embed/' + encodeURIComponent(this._videoId) + '?' + q;
  };
  Player.prototype._fire = function (name, data) {
    var e = { target: this, data: data };
    if (typeof this._events[name] === 'function') this._events[name](e);
    (this._listeners[name] || []).forEach(function (fn) { fn(e); });
  };
  Player.prototype._now = function () {
    return this._clock === null ? this._time : Math.min(DURATION, this._time + (Date.now() - this._clock) / 1000);
  };
  Player.prototype._halt = function () {
    this._time = this._now();
    this._clock = null;
    clearTimeout(this._endTimer);
    clearTimeout(this._bufferTimer);
  };
  Player.prototype._setState = function (state) {
    this._state = state;
    standin.log.push({ state: state, time: Math.round(this._now() * 1000) / 1000, videoId: this._videoId, at: Date.now() });
    this._fire('onStateChange', state);
  };
  Player.prototype._play = function () {
    var self = this;
    if (!this._ready || !this._videoId) return;
    if (this._videoId === 'notavideo00') { this._fire('onError', 100); return; }
    if (this._state === State.PLAYING || this._state === State.BUFFERING) return;
    this._halt();
    if (this._time >= DURATION) this._time = 0;
    this._setState(State.BUFFERING);
    this._bufferTimer = setTimeout(function () {
      self._clock = Date.now();
      self._setState(State.PLAYING);
      self._endTimer = setTimeout(function () {
        self._halt();
        self._setState(State.ENDED);
      }, (DURATION - self._time) * 1000);
    }, 80);
  };
  Player.prototype.playVideo = function () { this._play(); };
  Player.prototype.pauseVideo = function () {
    if (this._state === State.ENDED) return;
    this._halt();
    this._setState(State.PAUSED);
  };
  Player.prototype.stopVideo = function () {
    this._halt();
    this._setState(State.UNSTARTED);
  };
  Player.prototype.seekTo = function (seconds) {
    var wasPaused = this._state === State.PAUSED;
    var playing = this._state === State.PLAYING;
    this._halt();
    this._time = Math.max(0, Math.min(DURATION, Number(seconds) || 0));
    if (playing) {
      var self = this;
      this._clock = Date.now();
      this._endTimer = setTimeout(function () { self._halt(); self._setState(State.ENDED); }, (DURATION - this._time) * 1000);
    } else if (!wasPaused) {
      this._play();
    }
  };
  Player.prototype._cue = function (args, play) {
    var o = typeof args[0] === 'object' ? args[0] : { videoId: args[0], startSeconds: args[1] };
    this._halt();
    this._videoId = o.videoId;
    this._time = Number(o.startSeconds) || 0;
    this._frame.src = this._embedUrl();
    this._setState(State.CUED);
    if (play) this._play();
  };
  Player.prototype.cueVideoById = function () { this._cue(arguments, false); };
  Player.prototype.loadVideoById = function () { this._cue(arguments, true); };
  Player.prototype.getCurrentTime = function () { return this._now(); };
  Player.prototype.getDuration = function () { return this._videoId ? DURATION : 0; };
  Player.prototype.getPlayerState = function () { return this._state; };
  Player.prototype.getVideoData = function () { return { video_id: this._videoId }; };
  Player.prototype.setVolume = function (v) { this._volume = Math.max(0, Math.min(100, Number(v) || 0)); };
  Player.prototype.getVolume = function () { return this._volume; };
  Player.prototype.mute = function () { this._muted = true; };
  Player.prototype.unMute = function () { this._muted = false; };
  Player.prototype.isMuted = function () { return this._muted; };
  Player.prototype.getIframe = function () { return this._frame; };
  Player.prototype.addEventListener = function (name, fn) { (this._listeners[name] = this._listeners[name] || []).push(fn); };
  Player.prototype.removeEventListener = function (name, fn) { this._listeners[name] = (this._listeners[name] || []).filter(function (f) { return f !== fn; }); };
  Player.prototype.destroy = function () {
    this._halt();
    if (this._frame && this._frame.parentNode) this._frame.remove();
    standin.players -= 1;
  };
  window.YT.Player = Player;
  window.YT.PlayerState = State;
  window.YT.loaded = 1;
  window.YT.ready = function (fn) { fn(); };
  if (typeof window.onYouTubeIframeAPIReady === 'function') window.onYouTubeIframeAPIReady();
})();
`;

/** The "video": a dark page that names its id in large type, as a video would show its title. */
const embedPage = (id: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Stand-in video</title>
<style>html,body{margin:0;height:100%;background:#111;color:#eee;font:600 20px system-ui,sans-serif;display:flex;align-items:center;justify-content:center;text-align:center}</style>
</head><body><div>Stand-in video<br><span data-video>${id.replace(/[^A-Za-z0-9_-]/g, '')}</span></div></body></html>`;

/** Starts the stand-in on a free port of 127.0.0.1. */
export async function startYoutubeStandin(): Promise<YoutubeStandin> {
  const requests: string[] = [];
  let origin = '';
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    requests.push(url.pathname);
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
      res.end(body);
    };
    if (url.pathname === '/iframe_api') return send(200, 'text/javascript; charset=utf-8', apiScript(origin));
    if (url.pathname === PLAYER_PATH) return send(200, 'text/javascript; charset=utf-8', playerScript(origin));
    const embed = /^\/embed\/([^/]+)$/.exec(url.pathname);
    if (embed) return send(200, 'text/html; charset=utf-8', embedPage(decodeURIComponent(embed[1] as string)));
    send(404, 'text/plain', 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    api: `${origin}/iframe_api`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
