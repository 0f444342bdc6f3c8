// Starlight (Astro) site of the bread generator corpus: code blocks drawn
// by Expressive Code, Starlight's default, and the Markdown of every page
// in llms-full.txt from starlight-llms-txt.
import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';
import starlightLlmsTxt from 'starlight-llms-txt';

export default defineConfig({
  site: 'https://larkspur.example',
  integrations: [
    starlight({
      title: 'Larkspur',
      sidebar: [{ label: 'Guide', items: ['guide', 'reference'] }],
      plugins: [starlightLlmsTxt()],
    }),
  ],
});
