import re,sys
for path in sys.argv[1:]:
    lines=open(path,encoding='utf8').read().split('\n')
    src=None
    for ln in lines[1:]:
        m=re.match(r'^#(\s*)(\^+|<-+)\s*(.*)$',ln)
        if not m:
            src=ln; continue
        if m.group(2).startswith('<'):
            start=0; length=len(m.group(2))-1
        else:
            start=1+len(m.group(1)); length=len(m.group(2))
        print(repr(src[start:start+length]).ljust(40), m.group(3))
