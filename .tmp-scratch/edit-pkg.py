import json, subprocess, collections
p='package.json'
pkg=json.load(open(p), object_pairs_hook=collections.OrderedDict)
config=json.loads(subprocess.check_output(['npx','tsx','-e','import {configurationContribution} from "./client/scripts/manifest"; process.stdout.write(JSON.stringify(configurationContribution()))']), object_pairs_hook=collections.OrderedDict)
contributes=collections.OrderedDict([
  ("commands",[
    {"command":"rolloutLint.fixAll","title":"Fix All Safely Fixable Problems","category":"Rollout Lint"},
    {"command":"rolloutLint.showOutput","title":"Show Output","category":"Rollout Lint"},
    {"command":"rolloutLint.restartServer","title":"Restart Server","category":"Rollout Lint"},
  ]),
  ("configuration",config),
  ("languages",[
    collections.OrderedDict([("id","dotenv"),("aliases",["Dotenv","dotenv"]),("extensions",[".env"]),("filenames",[".env"]),("filenamePatterns",[".env.*"]),("configuration","./syntaxes/dotenv.language-configuration.json")]),
    collections.OrderedDict([("id","rollout-lint-report"),("aliases",["Rollout Lint Report"])]),
  ]),
  ("grammars",[
    collections.OrderedDict([("language","dotenv"),("scopeName","source.dotenv.rollout-lint"),("path","./syntaxes/dotenv.tmLanguage.json")]),
    collections.OrderedDict([("language","rollout-lint-report"),("scopeName","text.rollout-lint-report"),("path","./syntaxes/rollout-lint-report.tmLanguage.json")]),
  ]),
  ("jsonValidation",[{"fileMatch":".rolloutlintrc.json","url":"./schemas/rolloutlintrc.schema.json"}]),
])
capabilities=collections.OrderedDict([
  ("untrustedWorkspaces",collections.OrderedDict([("supported","limited"),("description","In untrusted workspaces Rollout Lint still lints, makes no network call and ignores provider profiles that come from the workspace (rolloutLint.extraProviders in workspace settings, extraProviders in .rolloutlintrc.json)."),("restrictedConfigurations",["rolloutLint.extraProviders"])])),
  ("virtualWorkspaces",collections.OrderedDict([("supported",False),("description","The language server reads files, .gitignore files and git state from disk.")])),
])
out=collections.OrderedDict()
for k,v in pkg.items():
    if k=='activationEvents':
        out[k]=["onLanguage:dotenv","onLanguage:yaml","onLanguage:docker-compose","onLanguage:json","onLanguage:jsonc","onLanguage:python","onLanguage:shellscript","workspaceContains:**/.env*","workspaceContains:**/*.env","workspaceContains:**/openclaw.json"]
    elif k=='contributes':
        out[k]=contributes
        out['capabilities']=capabilities
    elif k=='scripts':
        s=collections.OrderedDict(v)
        s['package']="npm run build && node client/build.mjs --minify && vsce package --no-dependencies"
        s['test:grammar']="vscode-tmgrammar-test -g syntaxes/dotenv.tmLanguage.json -g syntaxes/rollout-lint-report.tmLanguage.json \"syntaxes/test/*.test.*\""
        out[k]=s
    else:
        out[k]=v
    if k=='categories':
        out['icon']='client/media/icon.png'
        out['galleryBanner']={"color":"#1b2330","theme":"dark"}
open(p,'w').write(json.dumps(out,indent=2,ensure_ascii=False)+"\n")
