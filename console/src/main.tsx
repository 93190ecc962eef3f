import '@cloudscape-design/global-styles/index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { loadConfig } from './config';
import { strings } from './i18n/strings';

const root = createRoot(document.getElementById('root') as HTMLElement);

loadConfig()
  .then((config) =>
    root.render(
      <StrictMode>
        <App config={config} />
      </StrictMode>,
    ),
  )
  .catch((error: unknown) => {
    root.render(
      <main style={{ padding: 40, fontFamily: 'sans-serif' }}>
        <h1>{strings.app.configFailed}</h1>
        <p>{error instanceof Error ? error.message : String(error)}</p>
      </main>,
    );
  });
