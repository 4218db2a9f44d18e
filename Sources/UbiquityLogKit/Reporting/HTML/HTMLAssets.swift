// The HTML report's style sheet and script, inlined in every page: nothing is fetched. The page
// reads whole without the script (static SVG with titles, tables); the script adds tooltips,
// the jump from a finding to its mark and the filters. It reads the log's data only from the
// page's JSON (`textContent`, `JSON.parse`) and writes it only as text (`textContent`).

enum HTMLAssets {
    static let style = """
    :root{--err:#c62828;--warn:#e08600;--ok:#2e7d32;--muted:#757575;--ink:#1b1b1b;--line:#d0d0d0}
    *{box-sizing:border-box}
    body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--ink);margin:0 auto;padding:16px 24px;max-width:1280px}
    h1{font-size:24px;margin:4px 0 8px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}h3{font-size:15px;margin:16px 0 4px}
    code,pre,.mono{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12.5px}
    pre{white-space:pre-wrap;background:#f6f6f6;padding:8px;border-radius:4px;margin:4px 0}
    .verdict{display:inline-block;padding:2px 10px;border-radius:4px;color:#fff;background:var(--muted)}
    .v-healthy{background:var(--ok)}.v-degraded{background:var(--warn)}.v-broken{background:var(--err)}.v-unknown,.v-no-evidence{background:#5d4037}
    .outcome{font-weight:600}.meta{color:var(--muted);font-size:12.5px}
    ul.evidence{margin:4px 0 0;padding-left:20px}
    .kind-block{border-left:4px solid var(--warn);padding:2px 0 2px 12px;margin:12px 0}.kind-block.sev-error{border-color:var(--err)}
    .kind-block p{margin:2px 0}.findings{margin:6px 0;padding-left:20px}.findings li{margin:3px 0}
    .hint{color:#37474f;font-size:13px}.where{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12.5px}
    table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid var(--line);padding:3px 8px;vertical-align:top;text-align:left}
    th{background:#f3f3f3}td ul{margin:2px 0;padding-left:18px}
    .timeline-wrap{overflow-x:auto;border:1px solid var(--line);border-radius:4px}
    svg.timeline{display:block;width:100%;min-width:900px;height:auto;font:11px system-ui,"DejaVu Sans",sans-serif}
    .lane-bg{fill:#fafafa}.lane-bg.odd{fill:#f0f0f0}.lane-label{fill:var(--ink)}.axis{stroke:#bbb}.axis-label{fill:var(--muted)}
    .mk:focus{outline:none;stroke:#000;stroke-width:2}.flash{stroke:#000;stroke-width:3}
    .c-load.o-succeeded{fill:#43a047}.c-load.o-failed{fill:var(--err)}.c-load.o-unavailable{fill:var(--warn)}.c-load.o-unfinished,.c-load.o-cancelled{fill:#9e9e9e}
    .c-request{fill:#1e88e5}.c-request.o-failed{fill:var(--err)}.c-request.o-cancelled,.c-request.o-unfinished{fill:#90a4ae}
    .c-wait{fill:url(#wait-hatch);stroke:#c49000;stroke-width:.5}
    .c-incident{fill:rgba(198,40,40,.13)}.c-incident.o-recovered{fill:rgba(224,134,0,.13)}
    .c-transfer{fill:#6a1b9a}.c-transfer.o-import{fill:#00838f}
    .c-error{fill:var(--err)}.c-warning{fill:var(--warn)}.c-unhandled{fill:#9e9e9e}
    .run{opacity:.55}
    .legend{display:flex;flex-wrap:wrap;gap:4px 14px;margin:6px 0;padding:0;list-style:none;font-size:12.5px}
    .sw{display:inline-block;width:12px;height:12px;border-radius:2px;vertical-align:-2px;margin-right:4px}
    #filters{margin:6px 0;display:flex;flex-wrap:wrap;gap:4px 18px}#filters fieldset{border:1px solid var(--line);border-radius:4px;padding:2px 8px}
    #filters label{margin-right:10px;white-space:nowrap}
    #tip{position:fixed;z-index:10;max-width:520px;background:#263238;color:#fff;padding:6px 9px;border-radius:4px;font-size:12.5px;pointer-events:none;white-space:pre-wrap}
    .hide-incident .c-incident,.hide-load .c-load,.hide-request .c-request,.hide-wait .c-wait,.hide-transfer .c-transfer,.hide-error .c-error,.hide-warning .c-warning,.hide-unhandled .c-unhandled{display:none}
    @media print{#filters,#tip{display:none!important}.timeline-wrap{overflow:visible;border:0}svg.timeline{width:100%;height:auto}body{max-width:none;padding:0}a{color:inherit;text-decoration:none}details{display:block}}
    """

    static let script = """
    (function(){'use strict';
    var node=document.getElementById('parselogs-data');if(!node)return;
    var data=JSON.parse(node.textContent);var svg=document.querySelector('svg.timeline');
    var tip=document.getElementById('tip');
    function describe(el){var i=el.getAttribute('data-i');if(i!==null){var m=data.marks[+i];if(m){var lines=[];
    lines.push((m[3]?m[3]+'  ':'')+m[2]+'  '+m[4]);if(m[9])lines.push('until '+m[9]);lines.push(m[5]);
    if(m[7])lines.push(m[7]);if(m[8]!==null&&m[8]!==undefined)lines.push(m[8]+' objects');if(m[6])lines.push('hint: '+m[6]);return lines.join('\\n');}}
    var t=el.querySelector('title');return t?t.textContent:'';}
    function show(el,x,y){var text=describe(el);if(!text){return;}tip.textContent=text;tip.hidden=false;
    var w=tip.offsetWidth,h=tip.offsetHeight;var left=Math.min(x+12,window.innerWidth-w-8),top=y+14;if(top+h>window.innerHeight-4)top=y-h-10;
    tip.style.left=Math.max(4,left)+'px';tip.style.top=Math.max(4,top)+'px';}
    function hide(){tip.hidden=true;}
    if(svg&&tip){
    svg.addEventListener('mouseover',function(e){var el=e.target.closest('[data-i],.run');if(el)show(el,e.clientX,e.clientY);});
    svg.addEventListener('mouseout',function(e){if(e.target.closest('[data-i],.run'))hide();});
    svg.addEventListener('focusin',function(e){var el=e.target.closest('[data-i],.run');if(el){var r=el.getBoundingClientRect();show(el,r.left,r.bottom);}});
    svg.addEventListener('focusout',hide);
    document.addEventListener('keydown',function(e){if(e.key==='Escape')hide();});}
    function reveal(el){var lane=el.closest('g.lane');if(lane&&lane.style.display==='none'){var box=document.querySelector('#filters input[data-lane="'+lane.getAttribute('data-lane')+'"]');if(box){box.checked=true;}lane.style.display='';}
    var cls=(el.getAttribute('class')||'').split(' ').filter(function(c){return c.indexOf('c-')===0;})[0];
    if(cls&&svg.classList.contains('hide-'+cls.slice(2))){svg.classList.remove('hide-'+cls.slice(2));var b=document.querySelector('#filters input[data-class="'+cls.slice(2)+'"]');if(b)b.checked=true;}}
    document.addEventListener('click',function(e){var a=e.target.closest('a.goto');if(!a)return;var id=a.getAttribute('href').slice(1);
    var el=document.getElementById(id);if(!el)return;e.preventDefault();reveal(el);
    el.scrollIntoView({block:'center',inline:'center'});el.focus({preventScroll:true});
    el.classList.add('flash');setTimeout(function(){el.classList.remove('flash');},1600);});
    var filters=document.getElementById('filters');
    if(filters&&svg){
    function box(label,attr,value,onChange){var l=document.createElement('label');var c=document.createElement('input');c.type='checkbox';c.checked=true;c.setAttribute(attr,value);
    c.addEventListener('change',function(){onChange(c.checked);});l.appendChild(c);l.appendChild(document.createTextNode(' '+label));return l;}
    function set(legend){var f=document.createElement('fieldset');var g=document.createElement('legend');g.textContent=legend;f.appendChild(g);filters.appendChild(f);return f;}
    var kinds=set('Show');data.classes.forEach(function(c){kinds.appendChild(box(c.label+' ('+c.count+')','data-class',c.id,function(on){svg.classList.toggle('hide-'+c.id,!on);}));});
    if(data.lanes.length>1){var lanes=set('Lanes');data.lanes.forEach(function(name,i){lanes.appendChild(box(name,'data-lane',String(i),function(on){
    var g=svg.querySelector('g.lane[data-lane="'+i+'"]');if(g)g.style.display=on?'':'none';}));});}
    filters.hidden=false;}
    })();
    """
}
