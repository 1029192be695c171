(function(root) {
  function now() {
    return new Date();
  }

  const force = false;
  const version = '3.9.2'.replace('rc', '-rc.').replace('.dev', '-dev.');
  const reloading = true;
  const Bokeh = root.Bokeh;
  const BK_RE = /^https:\/\/cdn\.bokeh\.org\/bokeh\/(release|dev)\/bokeh-/;
  const PN_RE = /^https:\/\/cdn\.holoviz\.org\/panel\/[^/]+\/dist\/panel/i;

  // Set a timeout for this load but only if we are not already initializing
  if (typeof (root._bokeh_timeout) === "undefined" || (force || !root._bokeh_is_initializing)) {
    root._bokeh_timeout = Date.now() + 5000;
    root._bokeh_failed_load = false;
  }

  function run_callbacks() {
    try {
      root._bokeh_onload_callbacks.forEach(function(callback) {
        if (callback != null)
          callback();
      });
    } finally {
      delete root._bokeh_onload_callbacks;
    }
    console.debug("Bokeh: all callbacks have finished");
  }

  function load_libs(css_urls, js_urls, js_modules, js_exports, Bokeh, callback) {
    if (css_urls == null) css_urls = [];
    if (js_urls == null) js_urls = [];
    if (js_modules == null) js_modules = [];
    if (js_exports == null) js_exports = {};

    root._bokeh_onload_callbacks.push(callback);

    if (root._bokeh_is_loading > 0) {
      // Don't load bokeh if it is still initializing
      console.debug("Bokeh: BokehJS is being loaded, scheduling callback at", now());
      return null;
    } else if (js_urls.length === 0 && js_modules.length === 0 && Object.keys(js_exports).length === 0) {
      // There is nothing to load
      run_callbacks();
      return null;
    }

    function on_load() {
      root._bokeh_is_loading--;
      if (root._bokeh_is_loading === 0) {
        console.debug("Bokeh: all BokehJS libraries/stylesheets loaded");
        run_callbacks()
      }
    }
    window._bokeh_on_load = on_load

    function on_error(e) {
      const src_el = e.srcElement
      console.error("failed to load " + (src_el.href || src_el.src));
    }

    const skip = [];
    if (window.requirejs) {
      window.requirejs.config({'packages': {}, 'paths': {}, 'shim': {}});
      root._bokeh_is_loading = css_urls.length + 0;
    } else {
      root._bokeh_is_loading = css_urls.length + js_urls.length + js_modules.length + Object.keys(js_exports).length;
    }

    const existing_stylesheets = []
    const links = document.getElementsByTagName('link')
    for (let i = 0; i < links.length; i++) {
      const link = links[i]
      if (link.href != null) {
        existing_stylesheets.push(link.href)
      }
    }
    for (let i = 0; i < css_urls.length; i++) {
      const url = css_urls[i];
      const escaped = encodeURI(url)
      if (existing_stylesheets.indexOf(escaped) !== -1) {
        on_load()
        continue;
      }
      const element = document.createElement("link");
      element.onload = on_load;
      element.onerror = on_error;
      element.rel = "stylesheet";
      element.type = "text/css";
      element.href = url;
      console.debug("Bokeh: injecting link tag for BokehJS stylesheet: ", url);
      document.body.appendChild(element);
    }    var existing_scripts = []
    const scripts = document.getElementsByTagName('script')
    for (let i = 0; i < scripts.length; i++) {
      var script = scripts[i]
      if (script.src != null) {
        existing_scripts.push(script.src)
      }
    }
    for (let i = 0; i < js_urls.length; i++) {
      const url = js_urls[i];
      const escaped = encodeURI(url)
      const shouldSkip = skip.includes(escaped) || existing_scripts.includes(escaped)
      const isBokehOrPanel = BK_RE.test(escaped) || PN_RE.test(escaped)
      const missingOrBroken = Bokeh == null || Bokeh.Panel == null || (Bokeh.version != version && !Bokeh.versions?.has(version)) || Bokeh.versions?.get(version)?.Panel == null;
      if (shouldSkip && !(isBokehOrPanel && missingOrBroken)) {
        if (!window.requirejs) {
          on_load();
        }
        continue;
      }
      const element = document.createElement('script');
      element.onload = on_load;
      element.onerror = on_error;
      element.async = false;
      element.src = url;
      console.debug("Bokeh: injecting script tag for BokehJS library: ", url);
      document.head.appendChild(element);
    }
    for (let i = 0; i < js_modules.length; i++) {
      const url = js_modules[i];
      const escaped = encodeURI(url)
      if (skip.indexOf(escaped) !== -1 || existing_scripts.indexOf(escaped) !== -1) {
        if (!window.requirejs) {
          on_load();
        }
        continue;
      }
      var element = document.createElement('script');
      element.onload = on_load;
      element.onerror = on_error;
      element.async = false;
      element.src = url;
      element.type = "module";
      console.debug("Bokeh: injecting script tag for BokehJS library: ", url);
      document.head.appendChild(element);
    }
    for (const name in js_exports) {
      const url = js_exports[name];
      const escaped = encodeURI(url)
      if (skip.indexOf(escaped) >= 0 || root[name] != null) {
        if (!window.requirejs) {
          on_load();
        }
        continue;
      }
      var element = document.createElement('script');
      element.onerror = on_error;
      element.async = false;
      element.type = "module";
      console.debug("Bokeh: injecting script tag for BokehJS library: ", url);
      element.textContent = `
      import ${name} from "${url}"
      window.${name} = ${name}
      window._bokeh_on_load()
      `
      document.head.appendChild(element);
    }
    if (!js_urls.length && !js_modules.length) {
      on_load()
    }
  };

  function inject_raw_css(css) {
    const element = document.createElement("style");
    element.appendChild(document.createTextNode(css));
    document.body.appendChild(element);
  }

  const js_urls = [];
  const js_modules = [];
  const js_exports = {};
  const css_urls = [];
  const inline_js = [    function(Bokeh) {
      Bokeh.set_log_level("info");
    },
    function(Bokeh) {
      /**
       * Minified by jsDelivr using Terser v5.39.0.
       * Original file: /npm/es-module-shims@1.10.1/dist/es-module-shims.js
       *
       * Do NOT use SRI with dynamically generated files! More information: https://www.jsdelivr.com/using-sri-with-dynamic-files
       */
      !function(){const e="undefined"!=typeof document,t=()=>{},r=e?document.querySelector("script[type=esms-options]"):void 0,n=r?JSON.parse(r.innerHTML):{};Object.assign(n,self.esmsInitOptions||{});let i=!e||!!n.shimMode;const s=h(i&&n.onimport),a=h(i&&n.resolve);let o=n.fetch?h(n.fetch):fetch;const c=n.meta?h(i&&n.meta):t,l=n.mapOverrides;let f=n.nonce;if(!f&&e){const e=document.querySelector("script[nonce]");e&&(f=e.nonce||e.getAttribute("nonce"))}const u=h(n.onerror||t),{revokeBlobURLs:d,noLoadEventRetriggers:b,globalLoadEventRetrigger:p,enforceIntegrity:m}=n;function h(e){return"string"==typeof e?self[e]:e}const k=Array.isArray(n.polyfillEnable)?n.polyfillEnable:[],w=k.includes("css-modules"),y=k.includes("json-modules"),g=k.includes("wasm-modules"),$=k.includes("source-phase"),v=n.onpolyfill?h(n.onpolyfill):()=>{console.log("%c^^ Module error above is polyfilled and can be ignored ^^","font-weight:900;color:#391")},A=!navigator.userAgentData&&!!navigator.userAgent.match(/Edge\/\d+\.\d+/),E=e?document.baseURI:`${location.protocol}//${location.host}${location.pathname.includes("/")?location.pathname.slice(0,location.pathname.lastIndexOf("/")+1):location.pathname}`,O=(e,t="text/javascript")=>URL.createObjectURL(new Blob([e],{type:t}));let{skip:x}=n;if(Array.isArray(x)){const e=x.map((e=>new URL(e,E).href));x=t=>e.some((e=>"/"===e[e.length-1]&&t.startsWith(e)||t===e))}else if("string"==typeof x){const e=new RegExp(x);x=t=>e.test(t)}else x instanceof RegExp&&(x=e=>x.test(e));const S=e=>self.dispatchEvent(Object.assign(new Event("error"),{error:e})),L=e=>{(self.reportError||S)(e),u(e)};function j(e){return e?` imported from ${e}`:""}let C=!1;if(!i)if(document.querySelectorAll("script[type=module-shim],script[type=importmap-shim],link[rel=modulepreload-shim]").length)i=!0;else{let e=!1;for(const t of document.querySelectorAll("script[type=module],script[type=importmap]"))if(e){if("importmap"===t.type&&e){C=!0;break}}else"module"!==t.type||t.ep||(e=!0)}const U=/\\/g;function M(e){try{if(-1!==e.indexOf(":"))return new URL(e).href}catch(e){}}function _(e,t){return I(e,t)||M(e)||I("./"+e,t)}function I(e,t){const r=t.indexOf("#"),n=t.indexOf("?");if(r+n>-2&&(t=t.slice(0,-1===r?n:-1===n||n>r?r:n)),-1!==e.indexOf("\\")&&(e=e.replace(U,"/")),"/"===e[0]&&"/"===e[1])return t.slice(0,t.indexOf(":")+1)+e;if("."===e[0]&&("/"===e[1]||"."===e[1]&&("/"===e[2]||2===e.length&&(e+="/"))||1===e.length&&(e+="/"))||"/"===e[0]){const r=t.slice(0,t.indexOf(":")+1);if("blob:"===r)throw new TypeError(`Failed to resolve module specifier "${e}". Invalid relative url or base scheme isn't hierarchical.`);let n;if("/"===t[r.length+1]?"file:"!==r?(n=t.slice(r.length+2),n=n.slice(n.indexOf("/")+1)):n=t.slice(8):n=t.slice(r.length+("/"===t[r.length])),"/"===e[0])return t.slice(0,t.length-n.length-1)+e;const i=n.slice(0,n.lastIndexOf("/")+1)+e,s=[];let a=-1;for(let e=0;e<i.length;e++)if(-1===a){if("."===i[e]){if("."===i[e+1]&&("/"===i[e+2]||e+2===i.length)){s.pop(),e+=2;continue}if("/"===i[e+1]||e+1===i.length){e+=1;continue}}for(;"/"===i[e];)e++;a=e}else"/"===i[e]&&(s.push(i.slice(a,e+1)),a=-1);return-1!==a&&s.push(i.slice(a)),t.slice(0,t.length-n.length)+s.join("")}}function P(e,t,r){const n={imports:Object.assign({},r.imports),scopes:Object.assign({},r.scopes),integrity:Object.assign({},r.integrity)};if(e.imports&&W(e.imports,n.imports,t,r),e.scopes)for(let i in e.scopes){const s=_(i,t);W(e.scopes[i],n.scopes[s]||(n.scopes[s]={}),t,r)}return e.integrity&&function(e,t,r){for(let n in e){const s=I(n,r)||n;if((!i||!l)&&t[s]&&t[s]!==e[s])throw Error(`Rejected map integrity override "${s}" from ${t[s]} to ${e[s]}.`);t[s]=e[n]}}(e.integrity,n.integrity,t),n}function R(e,t){if(t[e])return e;let r=e.length;do{const n=e.slice(0,r+1);if(n in t)return n}while(-1!==(r=e.lastIndexOf("/",r-1)))}function T(e,t){const r=R(e,t);if(r){const n=t[r];if(null===n)return;return n+e.slice(r.length)}}function N(e,t,r){let n=r&&R(r,e.scopes);for(;n;){const r=T(t,e.scopes[n]);if(r)return r;n=R(n.slice(0,n.lastIndexOf("/")),e.scopes)}return T(t,e.imports)||-1!==t.indexOf(":")&&t}function W(e,t,r,n){for(let s in e){const a=I(s,r)||s;if((!i||!l)&&t[a]&&t[a]!==e[a])throw Error(`Rejected map override "${a}" from ${t[a]} to ${e[a]}.`);let o=e[s];if("string"!=typeof o)continue;const c=N(n,I(o,r)||o,r);c?t[a]=c:console.warn(`Mapping "${s}" -> "${e[s]}" does not resolve`)}}let q,H=!e&&(0,eval)("u=>import(u)");const J=e&&new Promise((e=>{const t=Object.assign(document.createElement("script"),{src:O("self._d=u=>import(u)"),ep:!0});t.setAttribute("nonce",f),t.addEventListener("load",(()=>{if(!(q=!!(H=self._d))){let e;window.addEventListener("error",(t=>e=t)),H=(t,r)=>new Promise(((n,i)=>{const s=Object.assign(document.createElement("script"),{type:"module",src:O(`import*as m from'${t}';self._esmsi=m`)});function a(a){document.head.removeChild(s),self._esmsi?(n(self._esmsi,E),self._esmsi=void 0):(i(!(a instanceof Event)&&a||e&&e.error||new Error(`Error loading ${r&&r.errUrl||t} (${s.src}).`)),e=void 0)}e=void 0,s.ep=!0,f&&s.setAttribute("nonce",f),s.addEventListener("error",a),s.addEventListener("load",a),document.head.appendChild(s)}))}document.head.removeChild(t),delete self._d,e()})),document.head.appendChild(t)}));let D=!1,B=!1;const F=e&&HTMLScriptElement.supports;let K=F&&"supports"===F.name&&F("importmap"),z=q,G=!1,Q=!1;const V=[0,97,115,109,1,0,0,0];let X,Y,Z,ee=Promise.resolve(J).then((()=>{if(q)return e?new Promise((e=>{const t=document.createElement("iframe");t.style.display="none",t.setAttribute("nonce",f),window.addEventListener("message",(function r({data:n}){Array.isArray(n)&&"esms"===n[0]&&([,K,z,B,D,G,Q]=n,e(),document.head.removeChild(t),window.removeEventListener("message",r,!1))}),!1);const r=`<script nonce=${f||""}>b=(s,type='text/javascript')=>URL.createObjectURL(new Blob([s],{type}));document.head.appendChild(Object.assign(document.createElement('script'),{type:'importmap',nonce:"${f}",innerText:\`{"imports":{"x":"\${b('')}"}}\`}));Promise.all([${K?"true,true":"'x',b('import.meta')"}, ${w?"b(`import\"${b('','text/css')}\"with{type:\"css\"}`)":"false"}, ${y?"b(`import\"${b('{}','text/json')}\"with{type:\"json\"}`)":"false"}, ${g?`b(\`import"\${b(new Uint8Array(${JSON.stringify(V)}),'application/wasm')}"\`)`:"false"}, ${g&&$?`b(\`import source x from "\${b(new Uint8Array(${JSON.stringify(V)}),'application/wasm')}"\`)`:"false"}].map(x =>typeof x==='string'?import(x).then(()=>true,()=>false):x)).then(a=>parent.postMessage(['esms'].concat(a),'*'))<\/script>`;let n=!1,i=!1;function s(){if(!n)return void(i=!0);const e=t.contentDocument;if(e&&0===e.head.childNodes.length){const t=e.createElement("script");f&&t.setAttribute("nonce",f),t.innerHTML=r.slice(15+(f?f.length:0),-9),e.head.appendChild(t)}}t.onload=s,document.head.appendChild(t),n=!0,"srcdoc"in t?t.srcdoc=r:t.contentDocument.write(r),i&&s()})):Promise.all([K||H(O("import.meta")).then((()=>z=!0),t),w&&H(O(`import"${O("","text/css")}"with{type:"css"}`)).then((()=>B=!0),t),y&&H(O(`import"${O("{}","text/json")}"with{type:"json"}`)).then((()=>D=!0),t),g&&H(O(`import"${O(new Uint8Array(V),"application/wasm")}"`)).then((()=>G=!0),t),g&&$&&H(O(`import source x from"${O(new Uint8Array(V),"application/wasm")}"`)).then((()=>Q=!0),t)])})),te=2<<19;const re=1===new Uint8Array(new Uint16Array([1]).buffer)[0]?function(e,t){const r=e.length;let n=0;for(;n<r;)t[n]=e.charCodeAt(n++)}:function(e,t){const r=e.length;let n=0;for(;n<r;){const r=e.charCodeAt(n);t[n++]=(255&r)<<8|r>>>8}};let ne,ie,se;function ae(e,t){se=e;let r="",n=se;for(;;){se>=ne.length&&fe();const e=ne.charCodeAt(se);if(e===t)break;92===e?(r+=ne.slice(n,se),r+=oe(),n=se):(8232===e||8233===e||le(e)&&fe(),++se)}return r+=ne.slice(n,se++),r}function oe(){let e=ne.charCodeAt(++se);switch(++se,e){case 110:return"\n";case 114:return"\r";case 120:return String.fromCharCode(ce(2));case 117:return function(){let e;return 123===ne.charCodeAt(se)?(++se,e=ce(ne.indexOf("}",se)-se),++se,e>1114111&&fe()):e=ce(4),e<=65535?String.fromCharCode(e):(e-=65536,String.fromCharCode(55296+(e>>10),56320+(1023&e)))}();case 116:return"\t";case 98:return"\b";case 118:return"\v";case 102:return"\f";case 13:10===ne.charCodeAt(se)&&++se;case 10:return"";case 56:case 57:fe();default:if(e>=48&&e<=55){let t=ne.substr(se-1,3).match(/^[0-7]+/)[0],r=parseInt(t,8);return r>255&&(t=t.slice(0,-1),r=parseInt(t,8)),se+=t.length-1,e=ne.charCodeAt(se),"0"===t&&56!==e&&57!==e||fe(),String.fromCharCode(r)}return le(e)?"":String.fromCharCode(e)}}function ce(e){const t=se;let r=0,n=0;for(let t=0;t<e;++t,++se){let e,i=ne.charCodeAt(se);if(95!==i){if(i>=97)e=i-97+10;else if(i>=65)e=i-65+10;else{if(!(i>=48&&i<=57))break;e=i-48}if(e>=16)break;n=i,r=16*r+e}else 95!==n&&0!==t||fe(),n=i}return 95!==n&&se-t===e||fe(),r}function le(e){return 13===e||10===e}function fe(){throw Object.assign(Error(`Parse error ${ie}:${ne.slice(0,se).split("\n").length}:${se-ne.lastIndexOf("\n",se-1)}`),{idx:se})}async function ue(e,t){const r=I(e,t)||M(e);return{r:N(Ae,r||e,t)||he(e,t),b:!r&&!M(e)}}const de=a?async(e,t)=>{let r=a(e,t,me);return r&&r.then&&(r=await r),r?{r:r,b:!I(e,t)&&!M(e)}:ue(e,t)}:ue;async function be(t,...r){let n=r[r.length-1];return"string"!=typeof n&&(n=E),await Ee,s&&await s(t,"string"!=typeof r[1]?r[1]:{},n),(Le||i||!ve)&&(e&&ze(!0),i||(Le=!1)),await xe,(await de(t,n)).r}async function pe(...e){return je(await be(...e),{credentials:"same-origin"})}function me(e,t){return N(Ae,I(e,t)||e,t)||he(e,t)}function he(e,t){throw Error(`Unable to resolve specifier '${e}'${j(t)}`)}$&&(pe.source=async function(...e){const t=Be(await be(...e),{credentials:"same-origin"},null,null);return Oe=void 0,Se&&!i&&t.n&&nativelyLoaded&&(v(),Se=!1),await t.f,pe._s[t.r]}),self.importShim=pe;const ke=(e,t=E)=>{t=`${t}`;const r=a&&a(e,t,me);return r&&!r.then?r:me(e,t)};function we(e,t=this.url){return ke(e,t)}pe.resolve=ke,pe.getImportMap=()=>JSON.parse(JSON.stringify(Ae)),pe.addImportMap=e=>{if(!i)throw new Error("Unsupported in polyfill mode.");Ae=P(e,E,Ae)};const ye=pe._r={},ge=pe._s={};async function $e(e,t){t[e.u]=1,await e.L,await Promise.all(e.d.map((({l:e,s:r})=>{if(!e.b&&!t[e.u])return r?e.f:$e(e,t)}))),e.n||(e.n=e.d.some((e=>e.l.n)))}let ve,Ae={imports:{},scopes:{},integrity:{}};const Ee=ee.then((()=>{if(ve=!0!==n.polyfillEnable&&q&&z&&K&&(!y||D)&&(!w||B)&&(!g||G)&&(!$||Q)&&!C,$&&"undefined"!=typeof WebAssembly&&!Object.getPrototypeOf(WebAssembly.Module).name){const e=Symbol(),t=t=>Object.defineProperty(t,e,{writable:!1,configurable:!1,value:"WebAssembly.Module"});class r{get[Symbol.toStringTag](){if(this[e])return this[e];throw new TypeError("Not an AbstractModuleSource")}}const{Module:n,compile:i,compileStreaming:s}=WebAssembly;WebAssembly.Module=Object.setPrototypeOf(Object.assign((function(...e){return t(new n(...e))}),n),r),WebAssembly.Module.prototype=Object.setPrototypeOf(n.prototype,r.prototype),WebAssembly.compile=function(...e){return i(...e).then(t)},WebAssembly.compileStreaming=function(...e){return s(...e).then(t)}}if(e){if(!K){const e=HTMLScriptElement.supports||(e=>"classic"===e||"module"===e);HTMLScriptElement.supports=t=>"importmap"===t||e(t)}if(i||!ve)if(new MutationObserver((e=>{for(const t of e)if("childList"===t.type)for(const e of t.addedNodes)"SCRIPT"===e.tagName?(e.type===(i?"module-shim":"module")&&st(e,!0),e.type===(i?"importmap-shim":"importmap")&&it(e,!0)):"LINK"===e.tagName&&e.rel===(i?"modulepreload-shim":"modulepreload")&&ot(e)})).observe(document,{childList:!0,subtree:!0}),ze(),"complete"===document.readyState)tt();else{document.addEventListener("readystatechange",(async function e(){await Ee,ze(),"complete"===document.readyState&&(tt(),document.removeEventListener("readystatechange",e))}))}}}));let Oe,xe=Ee,Se=!0,Le=!0;async function je(e,t,r,n,a){if(i||(Le=!1),await Ee,await xe,s&&await s(e,"string"!=typeof t?t:{},""),!i&&ve)return n?null:(await a,H(r?O(r):e,{errUrl:e||r}));const o=Be(e,t,null,r);Ke(o,t);const c={};if(await $e(o,c),Oe=void 0,Me(o,c),await a,r&&!i&&!o.n){if(n)return;return d&&Ce(Object.keys(c)),await H(O(r),{errUrl:r})}Se&&!i&&o.n&&n&&(v(),Se=!1);const l=await H(i||o.n||!n?o.b:o.u,{errUrl:o.u});return o.s&&(await H(o.s)).u$_(l),d&&Ce(Object.keys(c)),l}function Ce(e){let t=0;const r=e.length,n=self.requestIdleCallback?self.requestIdleCallback:self.requestAnimationFrame;n((function i(){const s=100*t;if(s>r)return;for(const t of e.slice(s,s+100)){const e=ye[t];e&&URL.revokeObjectURL(e.b)}t++,n(i)}))}function Ue(e){return`'${e.replace(/'/g,"\\'")}'`}function Me(e,t){if(e.b||!t[e.u])return;t[e.u]=0;for(const{l:r,s:n}of e.d)n||Me(r,t);const[r,n]=e.a,i=e.S;let s=A&&Oe?`import '${Oe}';`:"",a=0,o=0,l=[];function f(t){for(;l[l.length-1]<t;){const t=l.pop();s+=`${i.slice(a,t)}, ${Ue(e.r)}`,a=t}s+=i.slice(a,t),a=t}for(const{s:t,ss:n,se:u,d:d,t:b}of r)if(4===b){let{l:r}=e.d[o++];f(n),s+="import ",a=n+14,f(t-1),s+=`/*${i.slice(t-1,u)}*/'${O(`export default importShim._s[${Ue(r.r)}]`)}'`,a=u}else if(-1===d){let{l:r}=e.d[o++],n=r.b,c=!n;c&&((n=r.s)||(n=r.s=O(`export function u$_(m){${r.a[1].map((({s:e,e:t},n)=>{const i='"'===r.S[e]||"'"===r.S[e];return`e$_${n}=m${i?"[":"."}${r.S.slice(e,t)}${i?"]":""}`})).join(",")}}${r.a[1].length?`let ${r.a[1].map(((e,t)=>`e$_${t}`)).join(",")};`:""}export {${r.a[1].map((({s:e,e:t},n)=>`e$_${n} as ${r.S.slice(e,t)}`)).join(",")}}\n//# sourceURL=${r.r}?cycle`))),f(t-1),s+=`/*${i.slice(t-1,u)}*/'${n}'`,!c&&r.s&&(s+=`;import*as m$_${o} from'${r.b}';import{u$_ as u$_${o}}from'${r.s}';u$_${o}(m$_${o})`,r.s=void 0),a=u}else-2===d?(e.m={url:e.r,resolve:we},c(e.m,e.u),f(t),s+=`importShim._r[${Ue(e.u)}].m`,a=u):(f(n+6),s+=`Shim${5===b?".source":""}(`,l.push(u-1),a=t);function u(t,r){const n=r+t.length,o=i.indexOf("\n",n),c=-1!==o?o:i.length;let l=i.slice(n,c);try{l=new URL(l,e.r).href}catch{}f(n),s+=l,a=c}!e.s||0!==r.length&&-1!==r[r.length-1].d||(s+=`\n;import{u$_}from'${e.s}';try{u$_({${n.filter((e=>e.ln)).map((({s:e,e:t,ln:r})=>`${i.slice(e,t)}:${r}`)).join(",")}})}catch(_){};\n`);let d=i.lastIndexOf(_e),b=i.lastIndexOf(Ie);d<a&&(d=-1),b<a&&(b=-1),-1!==d&&(-1===b||b>d)&&u(_e,d),-1!==b&&(u(Ie,b),-1!==d&&d>b&&u(_e,d)),f(i.length),-1===d&&(s+=_e+e.r),e.b=Oe=O(s),e.S=void 0}const _e="\n//# sourceURL=",Ie="\n//# sourceMappingURL=",Pe=/^(text|application)\/(x-)?javascript(;|$)/,Re=/^(application)\/wasm(;|$)/,Te=/^(text|application)\/json(;|$)/,Ne=/^(text|application)\/css(;|$)/,We=/url\(\s*(?:(["'])((?:\\.|[^\n\\"'])+)\1|((?:\\.|[^\s,"'()\\])+))\s*\)/g;let qe=[],He=0;async function Je(e,t,r){if(m&&!t.integrity)throw Error(`No integrity for ${e}${j(r)}.`);const n=function(){if(++He>100)return new Promise((e=>qe.push(e)))}();n&&await n;try{var i=await o(e,t)}catch(t){throw t.message=`Unable to fetch ${e}${j(r)} - see network log for details.\n`+t.message,t}finally{He--,qe.length&&qe.shift()()}if(!i.ok){const e=new TypeError(`${i.status} ${i.statusText} ${i.url}${j(r)}`);throw e.response=i,e}return i}async function De(e,t,r){const n=Ae.integrity[e],i=await Je(e,n&&!t.integrity?Object.assign({},t,{integrity:n}):t,r),s=i.url,a=i.headers.get("content-type");if(Pe.test(a))return{r:s,s:await i.text(),sp:null,t:"js"};if(Re.test(a)){const e=await(ge[s]||(ge[s]=WebAssembly.compileStreaming(i)));ge[s]=e;let t="",r=0,n="";for(const i of WebAssembly.Module.imports(e)){const e=Ue(i.module);t+=`import * as impt${r} from ${e};\n`,n+=`${e}:impt${r++},`}r=0,t+=`const instance = await WebAssembly.instantiate(importShim._s[${Ue(s)}], {${n}});\n`;for(const r of WebAssembly.Module.exports(e))t+=`export const ${r.name} = instance.exports['${r.name}'];\n`;return{r:s,s:t,t:"wasm"}}if(Te.test(a))return{r:s,s:`export default ${await i.text()}`,sp:null,t:"json"};if(Ne.test(a))return{r:s,s:`var s=new CSSStyleSheet();s.replaceSync(${JSON.stringify((await i.text()).replace(We,((t,r="",n,i)=>`url(${r}${_(n||i,e)}${r})`)))});export default s;`,ss:null,t:"css"};throw Error(`Unsupported Content-Type "${a}" loading ${e}${j(r)}. Modules must be served with a valid MIME type like application/javascript.`)}function Be(e,t,r,n){if(n&&ye[e]){let t=0;for(;ye[e+ ++t];);e+=t}let s=ye[e];return s||(ye[e]=s={u:e,r:n?e:void 0,f:void 0,S:n,L:void 0,a:void 0,d:void 0,b:void 0,s:void 0,n:!1,t:null,m:null},s.f=(async()=>{if(!s.S){let n;if(({r:s.r,s:s.S,t:n}=await(at[e]||De(e,t,r))),n&&!i){if("css"===n&&!w||"json"===n&&!y||"wasm"===n&&!g)throw Fe(`${n}-modules`);("css"===n&&!B||"json"===n&&!D||"wasm"===n&&!G)&&(s.n=!0)}}try{s.a=function(e,t="@"){ne=e,ie=t;const r=2*ne.length+(2<<18);if(r>te||!X){for(;r>te;)te*=2;Y=new ArrayBuffer(te),re("xportmportlassforetaourceromsyncunctionssertvoyiedelecontininstantybreareturdebuggeawaithrwhileifcatcfinallels",new Uint16Array(Y,16,110)),X=function(e,t,r){"use asm";var n=new e.Int8Array(r),i=new e.Int16Array(r),s=new e.Int32Array(r),a=new e.Uint8Array(r),o=new e.Uint16Array(r),c=1040;function l(){var e=0,t=0,r=0,a=0,o=0,l=0,d=0;d=c;c=c+10240|0;n[804]=1;n[803]=0;i[399]=0;i[400]=0;s[69]=s[2];n[805]=0;s[68]=0;n[802]=0;s[70]=d+2048;s[71]=d;n[806]=0;e=(s[3]|0)+-2|0;s[72]=e;t=e+(s[66]<<1)|0;s[73]=t;e:while(1){r=e+2|0;s[72]=r;if(e>>>0>=t>>>0){a=18;break}t:do{switch(i[r>>1]|0){case 9:case 10:case 11:case 12:case 13:case 32:break;case 101:{if((((i[400]|0)==0?W(r)|0:0)?(A(e+4|0,16,10)|0)==0:0)?(f(),(n[804]|0)==0):0){a=9;break e}else a=17;break}case 105:{if(W(r)|0?(A(e+4|0,26,10)|0)==0:0){u();a=17}else a=17;break}case 59:{a=17;break}case 47:switch(i[e+4>>1]|0){case 47:{_();break t}case 42:{v(1);break t}default:{a=16;break e}}default:{a=16;break e}}}while(0);if((a|0)==17){a=0;s[69]=s[72]}e=s[72]|0;t=s[73]|0}if((a|0)==9){e=s[72]|0;s[69]=e;a=19}else if((a|0)==16){n[804]=0;s[72]=e;a=19}else if((a|0)==18)if(!(n[802]|0)){e=r;a=19}else e=0;do{if((a|0)==19){e:while(1){t=e+2|0;s[72]=t;if(e>>>0>=(s[73]|0)>>>0){a=92;break}t:do{switch(i[t>>1]|0){case 9:case 10:case 11:case 12:case 13:case 32:break;case 101:{if(((i[400]|0)==0?W(t)|0:0)?(A(e+4|0,16,10)|0)==0:0){f();a=91}else a=91;break}case 105:{if(W(t)|0?(A(e+4|0,26,10)|0)==0:0){u();a=91}else a=91;break}case 99:{if((W(t)|0?(A(e+4|0,36,8)|0)==0:0)?G(i[e+12>>1]|0)|0:0){n[806]=1;a=91}else a=91;break}case 40:{r=s[70]|0;e=i[400]|0;a=e&65535;s[r+(a<<3)>>2]=1;t=s[69]|0;i[400]=e+1<<16>>16;s[r+(a<<3)+4>>2]=t;a=91;break}case 41:{t=i[400]|0;if(!(t<<16>>16)){a=36;break e}r=t+-1<<16>>16;i[400]=r;a=i[399]|0;t=a&65535;if(a<<16>>16!=0?(s[(s[70]|0)+((r&65535)<<3)>>2]|0)==5:0){t=s[(s[71]|0)+(t+-1<<2)>>2]|0;r=t+4|0;if(!(s[r>>2]|0))s[r>>2]=(s[69]|0)+2;s[t+12>>2]=e+4;i[399]=a+-1<<16>>16;a=91}else a=91;break}case 123:{a=s[69]|0;r=s[63]|0;e=a;do{if((i[a>>1]|0)==41&(r|0)!=0?(s[r+4>>2]|0)==(a|0):0){t=s[64]|0;s[63]=t;if(!t){s[59]=0;break}else{s[t+32>>2]=0;break}}}while(0);r=s[70]|0;t=i[400]|0;a=t&65535;s[r+(a<<3)>>2]=(n[806]|0)==0?2:6;i[400]=t+1<<16>>16;s[r+(a<<3)+4>>2]=e;n[806]=0;a=91;break}case 125:{e=i[400]|0;if(!(e<<16>>16)){a=49;break e}r=s[70]|0;a=e+-1<<16>>16;i[400]=a;if((s[r+((a&65535)<<3)>>2]|0)==4){p();a=91}else a=91;break}case 39:{k(39);a=91;break}case 34:{k(34);a=91;break}case 47:switch(i[e+4>>1]|0){case 47:{_();break t}case 42:{v(1);break t}default:{e=s[69]|0;t=i[e>>1]|0;r:do{if(!(O(t)|0))if(t<<16>>16==41){r=i[400]|0;if(!(R(s[(s[70]|0)+((r&65535)<<3)+4>>2]|0)|0))a=65}else a=64;else switch(t<<16>>16){case 46:if(((i[e+-2>>1]|0)+-48&65535)<10){a=64;break r}else break r;case 43:if((i[e+-2>>1]|0)==43){a=64;break r}else break r;case 45:if((i[e+-2>>1]|0)==45){a=64;break r}else break r;default:break r}}while(0);if((a|0)==64){r=i[400]|0;a=65}r:do{if((a|0)==65){a=0;if(r<<16>>16!=0?(o=s[70]|0,l=(r&65535)+-1|0,t<<16>>16==102?(s[o+(l<<3)>>2]|0)==1:0):0){if((i[e+-2>>1]|0)==111?j(s[o+(l<<3)+4>>2]|0,44,3)|0:0)break}else a=69;if((a|0)==69?(0,t<<16>>16==125):0){a=s[70]|0;r=r&65535;if($(s[a+(r<<3)+4>>2]|0)|0)break;if((s[a+(r<<3)>>2]|0)==6)break}if(!(b(e)|0)){switch(t<<16>>16){case 0:break r;case 47:{if(n[805]|0)break r;break}default:{}}a=s[65]|0;if((a|0?e>>>0>=(s[a>>2]|0)>>>0:0)?e>>>0<=(s[a+4>>2]|0)>>>0:0){g();n[805]=0;a=91;break t}r=s[3]|0;do{if(e>>>0<=r>>>0)break;e=e+-2|0;s[69]=e;t=i[e>>1]|0}while(!(M(t)|0));if(T(t)|0){do{if(e>>>0<=r>>>0)break;e=e+-2|0;s[69]=e}while(T(i[e>>1]|0)|0);if(C(e)|0){g();n[805]=0;a=91;break t}}n[805]=1;a=91;break t}}}while(0);g();n[805]=0;a=91;break t}}case 96:{r=s[70]|0;t=i[400]|0;a=t&65535;s[r+(a<<3)+4>>2]=s[69];i[400]=t+1<<16>>16;s[r+(a<<3)>>2]=3;p();a=91;break}default:a=91}}while(0);if((a|0)==91){a=0;s[69]=s[72]}e=s[72]|0}if((a|0)==36){z();e=0;break}else if((a|0)==49){z();e=0;break}else if((a|0)==92){e=(n[802]|0)==0?(i[399]|i[400])<<16>>16==0:0;break}}}while(0);c=d;return e|0}function f(){var e=0,t=0,r=0,a=0,o=0,c=0,l=0,f=0,u=0,b=0,p=0,h=0,y=0,g=0;f=s[72]|0;u=s[65]|0;g=f+12|0;s[72]=g;r=m(1)|0;e=s[72]|0;if(!((e|0)==(g|0)?!(E(r)|0):0))y=3;e:do{if((y|0)==3){t:do{switch(r<<16>>16){case 123:{s[72]=e+2;e=m(1)|0;t=s[72]|0;while(1){if(Q(e)|0){k(e);e=(s[72]|0)+2|0;s[72]=e}else{I(e)|0;e=s[72]|0}m(1)|0;e=w(t,e)|0;if(e<<16>>16==44){s[72]=(s[72]|0)+2;e=m(1)|0}if(e<<16>>16==125){y=15;break}g=t;t=s[72]|0;if((t|0)==(g|0)){y=12;break}if(t>>>0>(s[73]|0)>>>0){y=14;break}}if((y|0)==12){z();break e}else if((y|0)==14){z();break e}else if((y|0)==15){n[803]=1;s[72]=(s[72]|0)+2;break t}break}case 42:{s[72]=e+2;m(1)|0;g=s[72]|0;w(g,g)|0;break}default:{n[804]=0;switch(r<<16>>16){case 100:{f=e+14|0;s[72]=f;switch((m(1)|0)<<16>>16){case 97:{t=s[72]|0;if((A(t+2|0,72,8)|0)==0?(o=t+10|0,T(i[o>>1]|0)|0):0){s[72]=o;m(0)|0;y=22}break}case 102:{y=22;break}case 99:{t=s[72]|0;if(((A(t+2|0,36,8)|0)==0?(a=t+10|0,g=i[a>>1]|0,G(g)|0|g<<16>>16==123):0)?(s[72]=a,c=m(1)|0,c<<16>>16!=123):0){h=c;y=31}break}default:{}}r:do{if((y|0)==22?(l=s[72]|0,(A(l+2|0,80,14)|0)==0):0){r=l+16|0;t=i[r>>1]|0;if(!(G(t)|0))switch(t<<16>>16){case 40:case 42:break;default:break r}s[72]=r;t=m(1)|0;if(t<<16>>16==42){s[72]=(s[72]|0)+2;t=m(1)|0}if(t<<16>>16!=40){h=t;y=31}}}while(0);if((y|0)==31?(b=s[72]|0,I(h)|0,p=s[72]|0,p>>>0>b>>>0):0){L(e,f,b,p);s[72]=(s[72]|0)+-2;break e}L(e,f,0,0);s[72]=e+12;break e}case 97:{s[72]=e+10;m(0)|0;e=s[72]|0;y=35;break}case 102:{y=35;break}case 99:{if((A(e+2|0,36,8)|0)==0?(t=e+10|0,M(i[t>>1]|0)|0):0){s[72]=t;g=m(1)|0;y=s[72]|0;I(g)|0;g=s[72]|0;L(y,g,y,g);s[72]=(s[72]|0)+-2;break e}e=e+4|0;s[72]=e;break}case 108:case 118:break;default:break e}if((y|0)==35){s[72]=e+16;e=m(1)|0;if(e<<16>>16==42){s[72]=(s[72]|0)+2;e=m(1)|0}y=s[72]|0;I(e)|0;g=s[72]|0;L(y,g,y,g);s[72]=(s[72]|0)+-2;break e}s[72]=e+6;n[804]=0;r=m(1)|0;e=s[72]|0;r=(I(r)|0|32)<<16>>16==123;a=s[72]|0;if(r){s[72]=a+2;g=m(1)|0;e=s[72]|0;I(g)|0}r:while(1){t=s[72]|0;if((t|0)==(e|0))break;L(e,t,e,t);t=m(1)|0;if(r)switch(t<<16>>16){case 93:case 125:break e;default:{}}e=s[72]|0;if(t<<16>>16!=44){y=51;break}s[72]=e+2;t=m(1)|0;e=s[72]|0;switch(t<<16>>16){case 91:case 123:{y=51;break r}default:{}}I(t)|0}if((y|0)==51)s[72]=e+-2;if(!r)break e;s[72]=a+-2;break e}}}while(0);g=(m(1)|0)<<16>>16==102;e=s[72]|0;if(g?(A(e+2|0,66,6)|0)==0:0){s[72]=e+8;d(f,m(1)|0,0);e=(u|0)==0?240:u+16|0;while(1){e=s[e>>2]|0;if(!e)break e;s[e+12>>2]=0;s[e+8>>2]=0;e=e+16|0}}s[72]=e+-2}}while(0);return}function u(){var e=0,t=0,r=0,a=0,o=0,c=0,l=0;o=s[72]|0;r=o+12|0;s[72]=r;a=m(1)|0;t=s[72]|0;e:do{if(a<<16>>16!=46)if(a<<16>>16==115&t>>>0>r>>>0)if((A(t+2|0,56,10)|0)==0?(e=t+12|0,G(i[e>>1]|0)|0):0)c=14;else{t=6;r=0;c=46}else{e=a;r=0;c=15}else{s[72]=t+2;switch((m(1)|0)<<16>>16){case 109:{e=s[72]|0;if(A(e+2|0,50,6)|0)break e;t=s[69]|0;if(!(N(t)|0)?(i[t>>1]|0)==46:0)break e;h(o,o,e+8|0,2);break e}case 115:{e=s[72]|0;if(A(e+2|0,56,10)|0)break e;t=s[69]|0;if(!(N(t)|0)?(i[t>>1]|0)==46:0)break e;e=e+12|0;c=14;break e}default:break e}}}while(0);if((c|0)==14){s[72]=e;e=m(1)|0;r=1;c=15}e:do{if((c|0)==15)switch(e<<16>>16){case 40:{t=s[70]|0;l=i[400]|0;a=l&65535;s[t+(a<<3)>>2]=5;e=s[72]|0;i[400]=l+1<<16>>16;s[t+(a<<3)+4>>2]=e;if((i[s[69]>>1]|0)==46)break e;s[72]=e+2;t=m(1)|0;h(o,s[72]|0,0,e);if(r){e=s[63]|0;s[e+28>>2]=5}else e=s[63]|0;o=s[71]|0;l=i[399]|0;i[399]=l+1<<16>>16;s[o+((l&65535)<<2)>>2]=e;switch(t<<16>>16){case 39:{k(39);break}case 34:{k(34);break}default:{s[72]=(s[72]|0)+-2;break e}}e=(s[72]|0)+2|0;s[72]=e;switch((m(1)|0)<<16>>16){case 44:{s[72]=(s[72]|0)+2;m(1)|0;o=s[63]|0;s[o+4>>2]=e;l=s[72]|0;s[o+16>>2]=l;n[o+24>>0]=1;s[72]=l+-2;break e}case 41:{i[400]=(i[400]|0)+-1<<16>>16;l=s[63]|0;s[l+4>>2]=e;s[l+12>>2]=(s[72]|0)+2;n[l+24>>0]=1;i[399]=(i[399]|0)+-1<<16>>16;break e}default:{s[72]=(s[72]|0)+-2;break e}}}case 123:{if(r){t=12;r=1;c=46;break e}e=s[72]|0;if(i[400]|0){s[72]=e+-2;break e}while(1){if(e>>>0>=(s[73]|0)>>>0)break;e=m(1)|0;if(!(Q(e)|0)){if(e<<16>>16==125){c=36;break}}else k(e);e=(s[72]|0)+2|0;s[72]=e}if((c|0)==36)s[72]=(s[72]|0)+2;l=(m(1)|0)<<16>>16==102;e=s[72]|0;if(l?A(e+2|0,66,6)|0:0){z();break e}s[72]=e+8;e=m(1)|0;if(Q(e)|0){d(o,e,0);break e}else{z();break e}}default:{if(r){t=12;r=1;c=46;break e}switch(e<<16>>16){case 42:case 39:case 34:{r=0;c=48;break e}default:{t=6;r=0;c=46;break e}}}}}while(0);if((c|0)==46){e=s[72]|0;if((e|0)==(o+(t<<1)|0))s[72]=e+-2;else c=48}do{if((c|0)==48){if(i[400]|0){s[72]=(s[72]|0)+-2;break}e=s[73]|0;t=s[72]|0;while(1){if(t>>>0>=e>>>0){c=55;break}a=i[t>>1]|0;if(Q(a)|0){c=53;break}l=t+2|0;s[72]=l;t=l}if((c|0)==53){d(o,a,r);break}else if((c|0)==55){z();break}}}while(0);return}function d(e,t,r){e=e|0;t=t|0;r=r|0;var n=0,a=0;n=(s[72]|0)+2|0;switch(t<<16>>16){case 39:{k(39);a=5;break}case 34:{k(34);a=5;break}default:z()}do{if((a|0)==5){h(e,n,s[72]|0,1);if(r)s[(s[63]|0)+28>>2]=4;s[72]=(s[72]|0)+2;t=m(0)|0;r=t<<16>>16==97;if(r){n=s[72]|0;if(A(n+2|0,94,10)|0)a=13}else{n=s[72]|0;if(!(((t<<16>>16==119?(i[n+2>>1]|0)==105:0)?(i[n+4>>1]|0)==116:0)?(i[n+6>>1]|0)==104:0))a=13}if((a|0)==13){s[72]=n+-2;break}s[72]=n+((r?6:4)<<1);if((m(1)|0)<<16>>16!=123){s[72]=n;break}r=s[72]|0;t=r;e:while(1){s[72]=t+2;t=m(1)|0;switch(t<<16>>16){case 39:{k(39);s[72]=(s[72]|0)+2;t=m(1)|0;break}case 34:{k(34);s[72]=(s[72]|0)+2;t=m(1)|0;break}default:t=I(t)|0}if(t<<16>>16!=58){a=22;break}s[72]=(s[72]|0)+2;switch((m(1)|0)<<16>>16){case 39:{k(39);break}case 34:{k(34);break}default:{a=26;break e}}s[72]=(s[72]|0)+2;switch((m(1)|0)<<16>>16){case 125:{a=31;break e}case 44:break;default:{a=30;break e}}s[72]=(s[72]|0)+2;if((m(1)|0)<<16>>16==125){a=31;break}t=s[72]|0}if((a|0)==22){s[72]=n;break}else if((a|0)==26){s[72]=n;break}else if((a|0)==30){s[72]=n;break}else if((a|0)==31){a=s[63]|0;s[a+16>>2]=r;s[a+12>>2]=(s[72]|0)+2;break}}}while(0);return}function b(e){e=e|0;e:do{switch(i[e>>1]|0){case 100:switch(i[e+-2>>1]|0){case 105:{e=j(e+-4|0,104,2)|0;break e}case 108:{e=j(e+-4|0,108,3)|0;break e}default:{e=0;break e}}case 101:switch(i[e+-2>>1]|0){case 115:switch(i[e+-4>>1]|0){case 108:{e=U(e+-6|0,101)|0;break e}case 97:{e=U(e+-6|0,99)|0;break e}default:{e=0;break e}}case 116:{e=j(e+-4|0,114,4)|0;break e}case 117:{e=j(e+-4|0,122,6)|0;break e}default:{e=0;break e}}case 102:{if((i[e+-2>>1]|0)==111?(i[e+-4>>1]|0)==101:0)switch(i[e+-6>>1]|0){case 99:{e=j(e+-8|0,134,6)|0;break e}case 112:{e=j(e+-8|0,146,2)|0;break e}default:{e=0;break e}}else e=0;break}case 107:{e=j(e+-2|0,150,4)|0;break}case 110:{e=e+-2|0;if(U(e,105)|0)e=1;else e=j(e,158,5)|0;break}case 111:{e=U(e+-2|0,100)|0;break}case 114:{e=j(e+-2|0,168,7)|0;break}case 116:{e=j(e+-2|0,182,4)|0;break}case 119:switch(i[e+-2>>1]|0){case 101:{e=U(e+-4|0,110)|0;break e}case 111:{e=j(e+-4|0,190,3)|0;break e}default:{e=0;break e}}default:e=0}}while(0);return e|0}function p(){var e=0,t=0,r=0,n=0;t=s[73]|0;r=s[72]|0;e:while(1){e=r+2|0;if(r>>>0>=t>>>0){t=10;break}switch(i[e>>1]|0){case 96:{t=7;break e}case 36:{if((i[r+4>>1]|0)==123){t=6;break e}break}case 92:{e=r+4|0;break}default:{}}r=e}if((t|0)==6){e=r+4|0;s[72]=e;t=s[70]|0;n=i[400]|0;r=n&65535;s[t+(r<<3)>>2]=4;i[400]=n+1<<16>>16;s[t+(r<<3)+4>>2]=e}else if((t|0)==7){s[72]=e;r=s[70]|0;n=(i[400]|0)+-1<<16>>16;i[400]=n;if((s[r+((n&65535)<<3)>>2]|0)!=3)z()}else if((t|0)==10){s[72]=e;z()}return}function m(e){e=e|0;var t=0,r=0,n=0;r=s[72]|0;e:do{t=i[r>>1]|0;t:do{if(t<<16>>16!=47)if(e)if(G(t)|0)break;else break e;else if(T(t)|0)break;else break e;else switch(i[r+2>>1]|0){case 47:{_();break t}case 42:{v(e);break t}default:{t=47;break e}}}while(0);n=s[72]|0;r=n+2|0;s[72]=r}while(n>>>0<(s[73]|0)>>>0);return t|0}function h(e,t,r,i){e=e|0;t=t|0;r=r|0;i=i|0;var a=0,o=0;o=s[67]|0;s[67]=o+36;a=s[63]|0;s[((a|0)==0?236:a+32|0)>>2]=o;s[64]=a;s[63]=o;s[o+8>>2]=e;if(2==(i|0)){e=3;a=r}else{a=1==(i|0);e=a?1:2;a=a?r+2|0:0}s[o+12>>2]=a;s[o+28>>2]=e;s[o>>2]=t;s[o+4>>2]=r;s[o+16>>2]=0;s[o+20>>2]=i;t=1==(i|0);n[o+24>>0]=t&1;s[o+32>>2]=0;if(t|2==(i|0))n[803]=1;return}function k(e){e=e|0;var t=0,r=0,n=0,a=0;a=s[73]|0;t=s[72]|0;while(1){n=t+2|0;if(t>>>0>=a>>>0){t=9;break}r=i[n>>1]|0;if(r<<16>>16==e<<16>>16){t=10;break}if(r<<16>>16==92){r=t+4|0;if((i[r>>1]|0)==13){t=t+6|0;t=(i[t>>1]|0)==10?t:r}else t=r}else if(Y(r)|0){t=9;break}else t=n}if((t|0)==9){s[72]=n;z()}else if((t|0)==10)s[72]=n;return}function w(e,t){e=e|0;t=t|0;var r=0,n=0,a=0,o=0;r=s[72]|0;n=i[r>>1]|0;o=(e|0)==(t|0);a=o?0:e;o=o?0:t;if(n<<16>>16==97){s[72]=r+4;r=m(1)|0;e=s[72]|0;if(Q(r)|0){k(r);t=(s[72]|0)+2|0;s[72]=t}else{I(r)|0;t=s[72]|0}n=m(1)|0;r=s[72]|0}if((r|0)!=(e|0))L(e,t,a,o);return n|0}function y(){var e=0,t=0,r=0;r=s[73]|0;t=s[72]|0;e:while(1){e=t+2|0;if(t>>>0>=r>>>0){t=6;break}switch(i[e>>1]|0){case 13:case 10:{t=6;break e}case 93:{t=7;break e}case 92:{e=t+4|0;break}default:{}}t=e}if((t|0)==6){s[72]=e;z();e=0}else if((t|0)==7){s[72]=e;e=93}return e|0}function g(){var e=0,t=0,r=0;e:while(1){e=s[72]|0;t=e+2|0;s[72]=t;if(e>>>0>=(s[73]|0)>>>0){r=7;break}switch(i[t>>1]|0){case 13:case 10:{r=7;break e}case 47:break e;case 91:{y()|0;break}case 92:{s[72]=e+4;break}default:{}}}if((r|0)==7)z();return}function $(e){e=e|0;switch(i[e>>1]|0){case 62:{e=(i[e+-2>>1]|0)==61;break}case 41:case 59:{e=1;break}case 104:{e=j(e+-2|0,210,4)|0;break}case 121:{e=j(e+-2|0,218,6)|0;break}case 101:{e=j(e+-2|0,230,3)|0;break}default:e=0}return e|0}function v(e){e=e|0;var t=0,r=0,n=0,a=0,o=0;a=(s[72]|0)+2|0;s[72]=a;r=s[73]|0;while(1){t=a+2|0;if(a>>>0>=r>>>0)break;n=i[t>>1]|0;if(!e?Y(n)|0:0)break;if(n<<16>>16==42?(i[a+4>>1]|0)==47:0){o=8;break}a=t}if((o|0)==8){s[72]=t;t=a+4|0}s[72]=t;return}function A(e,t,r){e=e|0;t=t|0;r=r|0;var i=0,s=0;e:do{if(!r)e=0;else{while(1){i=n[e>>0]|0;s=n[t>>0]|0;if(i<<24>>24!=s<<24>>24)break;r=r+-1|0;if(!r){e=0;break e}else{e=e+1|0;t=t+1|0}}e=(i&255)-(s&255)|0}}while(0);return e|0}function E(e){e=e|0;e:do{switch(e<<16>>16){case 38:case 37:case 33:{e=1;break}default:if((e&-8)<<16>>16==40|(e+-58&65535)<6)e=1;else{switch(e<<16>>16){case 91:case 93:case 94:{e=1;break e}default:{}}e=(e+-123&65535)<4}}}while(0);return e|0}function O(e){e=e|0;e:do{switch(e<<16>>16){case 38:case 37:case 33:break;default:if(!((e+-58&65535)<6|(e+-40&65535)<7&e<<16>>16!=41)){switch(e<<16>>16){case 91:case 94:break e;default:{}}return e<<16>>16!=125&(e+-123&65535)<4|0}}}while(0);return 1}function x(e){e=e|0;var t=0;t=i[e>>1]|0;e:do{if((t+-9&65535)>=5){switch(t<<16>>16){case 160:case 32:{t=1;break e}default:{}}if(E(t)|0)return t<<16>>16!=46|(N(e)|0)|0;else t=0}else t=1}while(0);return t|0}function S(e){e=e|0;var t=0,r=0,n=0,a=0;r=c;c=c+16|0;n=r;s[n>>2]=0;s[66]=e;t=s[3]|0;a=t+(e<<1)|0;e=a+2|0;i[a>>1]=0;s[n>>2]=e;s[67]=e;s[59]=0;s[63]=0;s[61]=0;s[60]=0;s[65]=0;s[62]=0;c=r;return t|0}function L(e,t,r,i){e=e|0;t=t|0;r=r|0;i=i|0;var a=0,o=0;a=s[67]|0;s[67]=a+20;o=s[65]|0;s[((o|0)==0?240:o+16|0)>>2]=a;s[65]=a;s[a>>2]=e;s[a+4>>2]=t;s[a+8>>2]=r;s[a+12>>2]=i;s[a+16>>2]=0;n[803]=1;return}function j(e,t,r){e=e|0;t=t|0;r=r|0;var n=0,i=0;n=e+(0-r<<1)|0;i=n+2|0;e=s[3]|0;if(i>>>0>=e>>>0?(A(i,t,r<<1)|0)==0:0)if((i|0)==(e|0))e=1;else e=x(n)|0;else e=0;return e|0}function C(e){e=e|0;switch(i[e>>1]|0){case 107:{e=j(e+-2|0,150,4)|0;break}case 101:{if((i[e+-2>>1]|0)==117)e=j(e+-4|0,122,6)|0;else e=0;break}default:e=0}return e|0}function U(e,t){e=e|0;t=t|0;var r=0;r=s[3]|0;if(r>>>0<=e>>>0?(i[e>>1]|0)==t<<16>>16:0)if((r|0)==(e|0))r=1;else r=M(i[e+-2>>1]|0)|0;else r=0;return r|0}function M(e){e=e|0;e:do{if((e+-9&65535)<5)e=1;else{switch(e<<16>>16){case 32:case 160:{e=1;break e}default:{}}e=e<<16>>16!=46&(E(e)|0)}}while(0);return e|0}function _(){var e=0,t=0,r=0;e=s[73]|0;r=s[72]|0;e:while(1){t=r+2|0;if(r>>>0>=e>>>0)break;switch(i[t>>1]|0){case 13:case 10:break e;default:r=t}}s[72]=t;return}function I(e){e=e|0;while(1){if(G(e)|0)break;if(E(e)|0)break;e=(s[72]|0)+2|0;s[72]=e;e=i[e>>1]|0;if(!(e<<16>>16)){e=0;break}}return e|0}function P(){var e=0;e=s[(s[61]|0)+20>>2]|0;switch(e|0){case 1:{e=-1;break}case 2:{e=-2;break}default:e=e-(s[3]|0)>>1}return e|0}function R(e){e=e|0;if(!(j(e,196,5)|0)?!(j(e,44,3)|0):0)e=j(e,206,2)|0;else e=1;return e|0}function T(e){e=e|0;switch(e<<16>>16){case 160:case 32:case 12:case 11:case 9:{e=1;break}default:e=0}return e|0}function N(e){e=e|0;if((i[e>>1]|0)==46?(i[e+-2>>1]|0)==46:0)e=(i[e+-4>>1]|0)==46;else e=0;return e|0}function W(e){e=e|0;if((s[3]|0)==(e|0))e=1;else e=x(e+-2|0)|0;return e|0}function q(){var e=0;e=s[(s[62]|0)+12>>2]|0;if(!e)e=-1;else e=e-(s[3]|0)>>1;return e|0}function H(){var e=0;e=s[(s[61]|0)+12>>2]|0;if(!e)e=-1;else e=e-(s[3]|0)>>1;return e|0}function J(){var e=0;e=s[(s[62]|0)+8>>2]|0;if(!e)e=-1;else e=e-(s[3]|0)>>1;return e|0}function D(){var e=0;e=s[(s[61]|0)+16>>2]|0;if(!e)e=-1;else e=e-(s[3]|0)>>1;return e|0}function B(){var e=0;e=s[(s[61]|0)+4>>2]|0;if(!e)e=-1;else e=e-(s[3]|0)>>1;return e|0}function F(){var e=0;e=s[61]|0;e=s[((e|0)==0?236:e+32|0)>>2]|0;s[61]=e;return(e|0)!=0|0}function K(){var e=0;e=s[62]|0;e=s[((e|0)==0?240:e+16|0)>>2]|0;s[62]=e;return(e|0)!=0|0}function z(){n[802]=1;s[68]=(s[72]|0)-(s[3]|0)>>1;s[72]=(s[73]|0)+2;return}function G(e){e=e|0;return(e|128)<<16>>16==160|(e+-9&65535)<5|0}function Q(e){e=e|0;return e<<16>>16==39|e<<16>>16==34|0}function V(){return(s[(s[61]|0)+8>>2]|0)-(s[3]|0)>>1|0}function X(){return(s[(s[62]|0)+4>>2]|0)-(s[3]|0)>>1|0}function Y(e){e=e|0;return e<<16>>16==13|e<<16>>16==10|0}function Z(){return(s[s[61]>>2]|0)-(s[3]|0)>>1|0}function ee(){return(s[s[62]>>2]|0)-(s[3]|0)>>1|0}function te(){return a[(s[61]|0)+24>>0]|0|0}function re(e){e=e|0;s[3]=e;return}function ne(){return s[(s[61]|0)+28>>2]|0}function ie(){return(n[803]|0)!=0|0}function se(){return(n[804]|0)!=0|0}function ae(){return s[68]|0}function oe(e){e=e|0;c=e+992+15&-16;return 992}return{su:oe,ai:D,e:ae,ee:X,ele:q,els:J,es:ee,f:se,id:P,ie:B,ip:te,is:Z,it:ne,ms:ie,p:l,re:K,ri:F,sa:S,se:H,ses:re,ss:V}}("undefined"!=typeof self?self:global,{},Y),Z=X.su(te-(2<<17))}const n=ne.length+1;X.ses(Z),X.sa(n-1),re(ne,new Uint16Array(Y,Z,n)),X.p()||(se=X.e(),fe());const i=[],s=[];for(;X.ri();){const e=X.is(),t=X.ie(),r=X.ai(),n=X.id(),s=X.ss(),a=X.se(),o=X.it();let c;X.ip()&&(c=ae(-1===n?e:e+1,ne.charCodeAt(-1===n?e-1:e))),i.push({t:o,n:c,s:e,e:t,ss:s,se:a,d:n,a:r})}for(;X.re();){const e=X.es(),t=X.ee(),r=X.els(),n=X.ele(),i=ne.charCodeAt(e),a=r>=0?ne.charCodeAt(r):-1;s.push({s:e,e:t,ls:r,le:n,n:34===i||39===i?ae(e+1,i):ne.slice(e,t),ln:r<0?void 0:34===a||39===a?ae(r+1,a):ne.slice(r,n)})}return[i,s,!!X.f(),!!X.ms()]}(s.S,s.u)}catch(e){L(e),s.a=[[],[],!1]}return s})(),s)}const Fe=e=>Error(`${e} feature must be enabled via <script type="esms-options">{ "polyfillEnable": ["${e}"] }<\/script>`);function Ke(e,t){e.L||(e.L=e.f.then((async()=>{let r=t;e.d=(await Promise.all(e.a[0].map((async({n:n,d:i,t:s})=>{const a=s>=4;if(a&&!$)throw Fe("source-phase");if((i>=0&&!q||-2===i&&!z||a&&!Q)&&(e.n=!0),-1!==i||!n)return;const{r:o,b:c}=await de(n,e.r||e.u);if(!c||K&&!C||(e.n=!0),-1!==i)return;if(x&&x(o)&&!a)return{l:{b:o},s:!1};r.integrity&&(r=Object.assign({},r,{integrity:void 0}));const l={l:Be(o,r,e.r,null),s:a};return l.s||Ke(l.l,t),l})))).filter((e=>e))})))}function ze(e=!1){if(!e)for(const e of document.querySelectorAll(i?"link[rel=modulepreload-shim]":"link[rel=modulepreload]"))ot(e);for(const e of document.querySelectorAll(i?"script[type=importmap-shim]":"script[type=importmap]"))it(e);if(!e)for(const e of document.querySelectorAll(i?"script[type=module-shim]":"script[type=module]"))st(e)}function Ge(e){const t={};return e.integrity&&(t.integrity=e.integrity),e.referrerPolicy&&(t.referrerPolicy=e.referrerPolicy),e.fetchPriority&&(t.priority=e.fetchPriority),"use-credentials"===e.crossOrigin?t.credentials="include":"anonymous"===e.crossOrigin?t.credentials="omit":t.credentials="same-origin",t}let Qe=Promise.resolve(),Ve=1;function Xe(){0!=--Ve||b||!i&&ve||document.dispatchEvent(new Event("DOMContentLoaded"))}let Ye=1;function Ze(){0!=--Ye||!p||b||!i&&ve||window.dispatchEvent(new Event("load"))}e&&(document.addEventListener("DOMContentLoaded",(async()=>{await Ee,Xe()})),window.addEventListener("load",(async()=>{await Ee,Ze()})));let et=1;function tt(){0!=--et||b||!i&&ve||document.dispatchEvent(new Event("readystatechange"))}const rt=e=>e.nextSibling||e.parentNode&&rt(e.parentNode),nt=(e,t)=>e.ep||!t&&(!e.src&&!e.innerHTML||!rt(e))||null!==e.getAttribute("noshim")||!(e.ep=!0);function it(e,t=et>0){if(!nt(e,t)){if(e.src){if(!i)return;C=!0}Le&&(xe=xe.then((async()=>{Ae=P(e.src?await(await Je(e.src,Ge(e))).json():JSON.parse(e.innerHTML),e.src||E,Ae)})).catch((t=>{console.log(t),t instanceof SyntaxError&&(t=new Error(`Unable to parse import map ${t.message} in: ${e.src||e.innerHTML}`)),L(t)})),i||(Le=!1))}}function st(e,t=et>0){if(nt(e,t))return;const r=null===e.getAttribute("async")&&et>0,n=Ve>0,s=Ye>0;s&&Ye++,r&&et++,n&&Ve++;const a=je(e.src||E,Ge(e),!e.src&&e.innerHTML,!i,r&&Qe).catch(L);b||a.then((()=>e.dispatchEvent(new Event("load")))),r&&(Qe=a.then(tt)),n&&a.then(Xe),s&&a.then(Ze)}const at={};function ot(e){e.ep||(e.ep=!0,at[e.href]||(at[e.href]=De(e.href,Ge(e))))}}();
      //# sourceMappingURL=/sm/28ede8607b3fcaa084fe297fb2fa8ffbbe1f95b4a1e6279ffa117cb3b112c0a0.map
    },
function(Bokeh) {} // ensure no trailing comma for IE
  ];

  function run_inline_js() {
    if ((root.Bokeh !== undefined) || (force === true)) {
      for (let i = 0; i < inline_js.length; i++) {
        try {
          inline_js[i].call(root, root.Bokeh);
        } catch(e) {
          if (!reloading) {
            throw e;
          }
        }
      }
    } else if (Date.now() < root._bokeh_timeout) {
      setTimeout(run_inline_js, 100);
    } else if (!root._bokeh_failed_load) {
      console.log("Bokeh: BokehJS failed to load within specified timeout.");
      root._bokeh_failed_load = true;
    }
    root._bokeh_is_initializing = false;
  }

  function load_or_wait() {
    // Implement a backoff loop that tries to ensure we do not load multiple
    // versions of Bokeh and its dependencies at the same time.
    // In recent versions we use the root._bokeh_is_initializing flag
    // to determine whether there is an ongoing attempt to initialize
    // bokeh, however for backward compatibility we also try to ensure
    // that we do not start loading a newer (Panel>=1.0 and Bokeh>3) version
    // before older versions are fully initialized.
    if (root._bokeh_is_initializing && Date.now() > root._bokeh_timeout) {
      // If the timeout and bokeh was not successfully loaded we reset
      // everything and try loading again
      root._bokeh_timeout = Date.now() + 5000;
      root._bokeh_is_initializing = false;
      root._bokeh_onload_callbacks = undefined;
      root._bokeh_is_loading = 0;
      console.log("Bokeh: BokehJS was loaded multiple times but one version failed to initialize.");
      load_or_wait();
    } else if (root._bokeh_is_initializing || (typeof root._bokeh_is_initializing === "undefined" && root._bokeh_onload_callbacks !== undefined)) {
      setTimeout(load_or_wait, 100);
    } else {
      root._bokeh_is_initializing = true;
      root._bokeh_onload_callbacks = [];
      const bokeh_loaded = Bokeh != null && ((Bokeh.version === version && Bokeh.Panel) || (Bokeh.versions?.has(version) && Bokeh.versions.get(version)?.Panel));
      if (!reloading && !bokeh_loaded) {
        if (root.Bokeh) {
          root.Bokeh = undefined;
        }
        console.debug("Bokeh: BokehJS not loaded, scheduling load and callback at", now());
      }
      load_libs(css_urls, js_urls, js_modules, js_exports, Bokeh, function() {
        console.debug("Bokeh: BokehJS plotting callback run at", now());
        run_inline_js();
        if (Bokeh != undefined && !reloading) {
          const NewBokeh = root.Bokeh;
          if (Bokeh.versions === undefined) {
            Bokeh.versions = new Map();
          }
          if (NewBokeh.version !== Bokeh.version) {
            Bokeh[NewBokeh.version] = NewBokeh;
            Bokeh.versions.set(NewBokeh.version, NewBokeh);
          }
          root.Bokeh = Bokeh;
        }
      });
    }
  }
  // Give older versions of the autoload script a head-start to ensure
  // they initialize before we start loading newer version.
  setTimeout(load_or_wait, 100)
}(window));