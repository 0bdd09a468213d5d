// Runs abaplint over sets of files given on stdin and prints its findings as JSON.
// Input: {"version": "v757", "rules": {"check_syntax": true, ...},
//         "cases": [{"id": "x", "files": [{"name": "zcl_x.clas.abap", "text": "..."}]}]}
// Each case is linted on its own. Output: {"<id>": [{"file", "line", "column", "key",
// "message"}]} (lines 1-based, columns 0-based).
"use strict";
const abaplint = require("@abaplint/core");

function lintCase(request, files) {
  const config = {
    global: { files: "/src/**/*.*" },
    syntax: { version: request.version || "v757", errorNamespace: "^(Z|Y|LCL_|TY_|LIF_|LTCL_)" },
    rules: request.rules,
  };
  const registry = new abaplint.Registry(new abaplint.Config(JSON.stringify(config)));
  for (const file of files) {
    registry.addFile(new abaplint.MemoryFile(file.name, file.text));
  }
  registry.parse();
  return registry.findIssues().map((issue) => ({
    file: issue.getFilename(),
    line: issue.getStart().getRow(),
    column: issue.getStart().getCol() - 1,
    key: issue.getKey(),
    message: issue.getMessage(),
  }));
}

function main(input) {
  const request = JSON.parse(input);
  const result = {};
  for (const one of request.cases) {
    result[one.id] = lintCase(request, one.files);
  }
  process.stdout.write(JSON.stringify(result));
}

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => main(input));
