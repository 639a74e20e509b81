import OpenAI from "openai";

// openai-node appends /chat/completions itself: ".../api/v1" is right here
export const client = new OpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env["OPENAI_API_KEY"] });
