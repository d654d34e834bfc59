import { boot } from '../boot.tsx'
import { EditTool } from '../edit/EditTool.tsx'

boot(() => <EditTool />)
