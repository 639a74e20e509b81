// 中文注释：策略服务的请求
const base: string = process.env.ROLLOUT_BASE_URL ?? "http://127.0.0.1:30000";

export async function rollout(messages: unknown[]): Promise<unknown> {
  const response = await fetch(`${base}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ model: "m", messages, logprobs: true }) });
  return response.json();
}
