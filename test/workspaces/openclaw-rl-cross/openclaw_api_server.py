import os

import uvicorn


class OpenClawAPIServer:
    def __init__(self, args):
        self.sglang_chat_url = f"http://{args.sglang_router_ip}:{args.sglang_router_port}/v1/chat/completions"
        self.host = os.getenv("HOST", "0.0.0.0")
        self.port = int(os.getenv("PORT", "30000"))

    def run(self, app):
        uvicorn.run(app, host=self.host, port=self.port)
