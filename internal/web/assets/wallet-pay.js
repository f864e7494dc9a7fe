// Pay with a wallet, the one script of botpay's buyer pages: find the
// browser's wallets (EIP-6963, else window.ethereum), switch to the page's
// chain, sign an EIP-3009 TransferWithAuthorization of exactly the amount
// to payTo and post it as an x402 v2 PAYMENT-SIGNATURE to the page's own
// x402 route, the path agents pay by. Node's tests load it (module.exports).
'use strict';
(function (root) {
  const STEPS = ['connect', 'switch', 'sign', 'settle', 'done'];
  const TYPES = {
    EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' }, { name: 'verifyingContract', type: 'address' }],
    TransferWithAuthorization: [{ name: 'from', type: 'address' }, { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' }, { name: 'validAfter', type: 'uint256' },
      { name: 'validBefore', type: 'uint256' }, { name: 'nonce', type: 'bytes32' }],
  };
  // What the route's refusals mean to a person (each adds NOTHING); others are quoted.
  const NOTHING = ' Nothing was paid.';
  const REASONS = {
    insufficient_funds: 'Your wallet does not hold enough USDC on {chain} for this payment.',
    invalid_signature: 'The signature from your wallet could not be verified.',
    expired: 'The signed authorization had already expired; check your device\'s clock and try again.',
    not_yet_valid: 'The signed authorization is not valid yet; check your device\'s clock and try again.',
    wrong_network: 'Your wallet signed for another chain than {chain}.',
    wrong_token: 'Your wallet signed for another token than USDC on {chain}.',
    authorization_already_used: 'This signature was already used; please pay again.',
    settlement_failed: 'The transfer failed on the chain; please try again.',
    settlement_unavailable: 'The chain cannot be reached right now; please try again in a minute.',
    simulation_failed: 'The chain would refuse this transfer (does your wallet hold enough USDC on {chain}?).',
  };

  function b64json(obj) {
    const bytes = new TextEncoder().encode(JSON.stringify(obj));
    let bin = '';
    for (const b of bytes) bin += String.fromCharCode(b);
    return btoa(bin);
  }

  function unb64json(text) {
    const bin = atob(String(text).trim());
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
  }

  // chainOf reads the chain id of a CAIP-2 network such as eip155:8453.
  function chainOf(network) {
    const m = /^eip155:([0-9]{1,15})$/.exec(String(network || ''));
    return m ? Number(m[1]) : 0;
  }

  // pickOffer is the first exact offer on an EVM chain, as the route wrote it.
  function pickOffer(required) {
    const offers = (required && Array.isArray(required.accepts)) ? required.accepts : [];
    return offers.find((o) => o && o.scheme === 'exact' && chainOf(o.network) > 0 &&
      /^[0-9]+$/.test(String(o.amount)) && o.extra && o.extra.name && o.extra.version) || null;
  }

  // parseAmount accepts a dollar amount such as 12, 12.5 or $12.50.
  function parseAmount(text) {
    const t = String(text || '').trim().replace(/^\$/, '').replace(/,/g, '');
    if (!/^[0-9]{1,9}(\.[0-9]{1,2})?$/.test(t) || Number(t) <= 0) return null;
    return Number(t).toFixed(2);
  }

  function withAmount(route, amount) {
    return amount ? route + (route.includes('?') ? '&' : '?') + 'amount_usd=' + encodeURIComponent(amount) : route;
  }

  function hex(bytes) {
    return '0x' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  }

  // authorization is what the wallet signs: exactly the offer's amount to
  // its payTo, valid from ten minutes ago (clock skew) for the offer's
  // timeout, under a random 32-byte nonce.
  function authorization(offer, from, nowSeconds, random) {
    const timeout = Number(offer.maxTimeoutSeconds) > 0 ? Number(offer.maxTimeoutSeconds) : 300;
    return { from, to: offer.payTo, value: String(offer.amount), validAfter: String(nowSeconds - 600),
      validBefore: String(nowSeconds + timeout), nonce: hex(random(32)) };
  }

  function typedData(offer, auth) {
    return { types: TYPES, primaryType: 'TransferWithAuthorization',
      domain: { name: offer.extra.name, version: offer.extra.version, chainId: chainOf(offer.network),
        verifyingContract: offer.asset },
      message: auth };
  }

  function paymentPayload(required, offer, auth, signature) {
    return { x402Version: 2, resource: required.resource, accepted: offer,
      payload: { signature, authorization: auth }, extensions: {} };
  }

  function explainReason(reason, chain) {
    const r = String(reason || '');
    const code = r.split(/[:\s]/)[0];
    const text = REASONS[code === 'authorization_used' ? 'authorization_already_used' : code] ||
      (/insufficient/i.test(r) ? REASONS.insufficient_funds : '');
    return (text || 'The payment was refused (' + r + ').').replace(/\{chain\}/g, chain) + NOTHING;
  }

  // walletError says what the wallet answered at a step, in plain words.
  function walletError(err, step, chain) {
    const code = err && (err.code !== undefined ? err.code : err.data && err.data.originalError && err.data.originalError.code);
    if (code === 4001) {
      return { connect: 'You did not connect a wallet, so nothing was paid.',
        switch: 'Your wallet did not switch to ' + chain + '. This payment is made on ' + chain + '; nothing was paid.',
        sign: 'You declined to sign in your wallet, so nothing was paid.' }[step] || 'Your wallet refused; nothing was paid.';
    }
    if (step === 'switch' && (code === 4902 || code === -32603 || code === 4200)) {
      return 'Your wallet does not know the chain ' + chain + '. Add ' + chain + ' to your wallet, or use a wallet that has it; nothing was paid.';
    }
    if (code === -32002) return 'Your wallet is already asking for something: open it, answer, and try again.';
    const msg = err && err.message ? ': ' + String(err.message).slice(0, 200) : '';
    return 'Your wallet reported an error' + msg + '. Nothing was paid.';
  }

  // discover collects the wallets that announce themselves (EIP-6963); it
  // calls found with the list each time it grows.
  function discover(win, found) {
    const list = [];
    win.addEventListener('eip6963:announceProvider', (e) => {
      const d = e.detail;
      if (!d || !d.provider || typeof d.provider.request !== 'function' || !d.info) return;
      if (list.some((w) => w.info.uuid === d.info.uuid)) return;
      list.push({ info: d.info, provider: d.provider });
      found(list.slice());
    });
    win.dispatchEvent(new win.Event('eip6963:requestProvider'));
    return list;
  }

  class Refusal extends Error {}

  async function readJSON(res) {
    try { return await res.json(); } catch { return {}; }
  }

  // fetchOffer asks the route for its 402 and reads PAYMENT-REQUIRED.
  async function fetchOffer(ctx, route) {
    const res = await ctx.fetch(route, { method: 'GET', headers: { Accept: 'application/json' }, credentials: 'omit' });
    const header = res.headers.get('PAYMENT-REQUIRED');
    if (res.status !== 402 || !header) {
      const body = await readJSON(res);
      throw new Refusal(body.message || body.error || 'This page cannot be paid right now (' + res.status + ').');
    }
    const required = unb64json(header);
    const offer = pickOffer(required);
    if (!offer) throw new Refusal('This page offers no payment a wallet can make.');
    const date = Date.parse(res.headers.get('Date') || '');
    return { required, offer, now: Math.floor((Number.isNaN(date) ? ctx.now() : date) / 1000) };
  }

  async function ensureChain(ctx, provider, chainId) {
    const want = '0x' + chainId.toString(16);
    const have = String(await provider.request({ method: 'eth_chainId' })).toLowerCase();
    if (have === want) return;
    ctx.step('switch');
    try {
      await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: want }] });
    } catch (err) {
      throw new Refusal(walletError(err, 'switch', ctx.chainName));
    }
    const now = String(await provider.request({ method: 'eth_chainId' })).toLowerCase();
    if (now !== want) throw new Refusal('Your wallet is still on another chain than ' + ctx.chainName + '; nothing was paid.');
  }

  async function ask(ctx, provider, step, args) {
    try {
      return await provider.request(args);
    } catch (err) {
      throw new Refusal(walletError(err, step, ctx.chainName));
    }
  }

  // submit posts the signed payment, and again while the chain confirms
  // it (the same signature answers the one sale once it is final).
  async function submit(ctx, route, header, buyer) {
    for (let attempt = 0; ; attempt++) {
      const res = await ctx.fetch(route, { method: 'POST', credentials: 'omit',
        headers: { 'PAYMENT-SIGNATURE': header, 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(buyer) });
      const body = await readJSON(res);
      if (res.ok && body.sale_id) return body;
      if (res.status === 409 && body.error === 'payment_in_progress' && attempt < 20) {
        await ctx.sleep(3000);
        continue;
      }
      if (res.status === 402) {
        let reason = body.error;
        try { reason = unb64json(res.headers.get('PAYMENT-REQUIRED')).error || reason; } catch { /* the body's */ }
        throw new Refusal(explainReason(reason, ctx.chainName));
      }
      const details = body.details ? Object.entries(body.details).map(([k, v]) => k.replace(/_/g, ' ') + ' ' + v).join('. ') : '';
      throw new Refusal((details || body.message || 'The payment failed (' + res.status + ')') + '. Nothing was paid.');
    }
  }

  // pay runs the whole flow with one wallet; ctx carries the page's route,
  // the buyer's details and the hooks (fetch, step, random, now, sleep).
  async function pay(ctx, provider) {
    const { required, offer, now } = await fetchOffer(ctx, withAmount(ctx.route, ctx.amount));
    ctx.step('connect');
    const accounts = await ask(ctx, provider, 'connect', { method: 'eth_requestAccounts' });
    const from = Array.isArray(accounts) && accounts[0];
    if (!from) throw new Refusal('Your wallet shared no account, so nothing was paid.');
    await ensureChain(ctx, provider, chainOf(offer.network));
    ctx.step('sign');
    const auth = authorization(offer, from, now, ctx.random);
    const signature = await ask(ctx, provider, 'sign',
      { method: 'eth_signTypedData_v4', params: [from, JSON.stringify(typedData(offer, auth))] });
    ctx.step('settle');
    const header = b64json(paymentPayload(required, offer, auth, signature));
    const sale = await submit(ctx, withAmount(ctx.route, ctx.amount), header, ctx.buyer);
    ctx.step('done');
    return sale;
  }

  // boot wires the page's "Pay with a wallet" section, when it has one.
  function boot(win) {
    const doc = win.document;
    const box = doc.querySelector('[data-wallet-pay]');
    if (!box) return;
    const $ = (sel) => box.querySelector(sel);
    const form = $('form');
    const status = $('[data-wallet-status]');
    const steps = $('[data-wallet-steps]');
    const buttons = $('[data-wallet-buttons]');
    const chainName = box.dataset.chainName || 'the chain';
    const say = (text, kind) => {
      status.textContent = text;
      status.className = kind || 'muted';
      status.hidden = !text;
    };
    const step = (name) => {
      steps.hidden = false;
      const at = STEPS.indexOf(name);
      steps.querySelectorAll('li').forEach((li) => {
        const i = STEPS.indexOf(li.dataset.step);
        li.dataset.state = i < at ? 'done' : i === at ? 'current' : 'todo';
        if (i === at) li.setAttribute('aria-current', 'step'); else li.removeAttribute('aria-current');
      });
      say(steps.querySelector('[data-step="' + name + '"]').textContent + '…', 'muted');
    };
    let busy = false;
    const start = async (provider) => {
      if (busy || !form.reportValidity()) return;
      const field = (id) => { const el = doc.getElementById(id); return el ? el.value.trim() : ''; };
      let amount = '';
      if (doc.getElementById('wallet_amount')) {
        amount = parseAmount(field('wallet_amount'));
        if (!amount) return say('Enter the amount in dollars, such as 12.50.', 'error');
      }
      busy = true;
      buttons.querySelectorAll('button').forEach((b) => { b.disabled = true; });
      const ctx = { route: box.dataset.x402, amount, chainName, step, fetch: win.fetch.bind(win), now: Date.now,
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
        random: (n) => win.crypto.getRandomValues(new Uint8Array(n)),
        buyer: { buyer_email: field('wallet_email') || undefined, buyer_name: field('wallet_name') || undefined } };
      try {
        const sale = await pay(ctx, provider);
        say('Paid. Opening your receipt…', 'ok');
        win.location.assign(box.dataset.receipt + encodeURIComponent(sale.sale_id));
      } catch (err) {
        const at = steps.querySelector('[aria-current]');
        if (at) at.dataset.state = 'failed';
        say(err instanceof Refusal ? err.message : 'Something went wrong (' + String(err && err.message || err) + '). Nothing was paid.', 'error');
        busy = false;
        buttons.querySelectorAll('button').forEach((b) => { b.disabled = false; });
      }
    };
    const show = (wallets) => {
      buttons.replaceChildren(...wallets.map((w) => {
        const b = doc.createElement('button');
        b.type = 'button';
        b.textContent = wallets.length > 1 ? 'Pay with ' + w.info.name : 'Pay with a wallet';
        b.addEventListener('click', () => start(w.provider));
        return b;
      }));
      $('[data-wallet-none]').hidden = wallets.length > 0;
      form.hidden = wallets.length === 0;
    };
    form.addEventListener('submit', (e) => e.preventDefault());
    box.hidden = false;
    const found = discover(win, show);
    setTimeout(() => {
      if (found.length === 0 && win.ethereum && typeof win.ethereum.request === 'function') {
        show([{ info: { name: 'your wallet', uuid: 'window.ethereum' }, provider: win.ethereum }]);
      } else if (found.length === 0) {
        show([]);
      }
    }, 400);
  }

  const api = { b64json, unb64json, chainOf, pickOffer, parseAmount, withAmount, authorization, typedData,
    paymentPayload, explainReason, walletError, discover, pay, Refusal, boot };
  if (typeof module === 'object' && module.exports) module.exports = api;
  if (root.document && root.document.querySelector) {
    if (root.document.readyState === 'loading') root.document.addEventListener('DOMContentLoaded', () => boot(root));
    else boot(root);
  }
})(typeof window !== 'undefined' ? window : globalThis);
